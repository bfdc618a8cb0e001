using System.Text.Json.Serialization;

namespace JsonLab.Datasets;

/// <summary>One row of datasets/manifest.json, as the lab reads it.</summary>
public sealed record DatasetEntry(
    [property: JsonPropertyName("name")] string Name,
    [property: JsonPropertyName("path")] string Path,
    [property: JsonPropertyName("bytes")] long Bytes,
    [property: JsonPropertyName("sha256")] string Sha256,
    [property: JsonPropertyName("model")] string? Model,
    [property: JsonPropertyName("layout")] string? Layout = null)
{
    /// <summary>One JSON document per file.</summary>
    public const string Document = "document";

    /// <summary>JSON Lines: one document per line, each an instance of the model; operations loop over them.</summary>
    public const string Lines = "lines";
}
