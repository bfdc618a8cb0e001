namespace JsonLab.Datasets;

/// <summary>One row of datasets/manifest.json, as the lab reads it.</summary>
public sealed record DatasetEntry(
    string Name,
    string Path,
    long Bytes,
    string Sha256,
    string? Model,
    string? Layout = null,
    CanonicalDigest? Canonical = null)
{
    /// <summary>One JSON document per file.</summary>
    public const string Document = "document";

    /// <summary>JSON Lines: one document per line, each an instance of the model; operations loop over them.</summary>
    public const string Lines = "lines";
}

/// <summary>A document's canonical digest (manifest "canonical"; rule jsonlab-canonical-v1, see Verification/CanonicalForm.cs).</summary>
public sealed record CanonicalDigest(string Rule, string Sha256, long Leaves);
