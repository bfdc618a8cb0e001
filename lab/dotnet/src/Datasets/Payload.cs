using System.Security.Cryptography;
using System.Text;

namespace JsonLab.Datasets;

/// <summary>
/// A dataset prepared once, outside any measured call, in every input form a variant may take.
/// </summary>
/// <param name="Name">Dataset name from the manifest.</param>
/// <param name="Model">Model name the dataset binds to.</param>
/// <param name="Text">UTF-16 text as File.ReadAllText yields it (a UTF-8 BOM is stripped).</param>
/// <param name="Utf8">UTF-8 bytes of <paramref name="Text"/>, without BOM.</param>
/// <param name="FileSha256">sha256 of the file bytes actually read (hex).</param>
/// <param name="Parts">For a JSON Lines dataset, one payload per document (in file order); null for one document.</param>
/// <param name="Canonical">The document's canonical digest from the manifest (what an untyped parse must reproduce), if any.</param>
public sealed record Payload(string Name, string Model, string Text, byte[] Utf8, string FileSha256, IReadOnlyList<Payload>? Parts = null,
    CanonicalDigest? Canonical = null)
{
    /// <summary>The model name of a dataset that declares none (an untyped document: only document variants bind it).</summary>
    public const string NoModel = "";

    /// <summary>The documents an operation works through: the parts of a JSON Lines dataset, or the payload itself.</summary>
    public IReadOnlyList<Payload> Documents => Parts ?? [this];

    /// <summary>The same payload in newly allocated text and bytes (parts too), placed wherever the heap puts them now.</summary>
    public Payload Copy() => this with
    {
        Text = new string(Text.AsSpan()),
        Utf8 = (byte[])Utf8.Clone(),
        Parts = Parts?.Select(p => p.Copy()).ToList(),
    };

    /// <summary>Loads a dataset file; the lab records the hash of what it read.</summary>
    public static Payload Load(string datasetsDir, DatasetEntry entry)
    {
        var path = Path.Combine(datasetsDir, entry.Path);
        if (!File.Exists(path))
            throw new LabException($"dataset '{entry.Name}' file is missing: {path}", "restore datasets/ from git");
        byte[] bytes;
        try
        {
            bytes = File.ReadAllBytes(path);
        }
        catch (Exception e) when (e is UnauthorizedAccessException or IOException)
        {
            throw new LabException($"dataset '{entry.Name}' cannot be read: {path}: {e.Message}",
                "make the file readable by the lab's user (a container runs the lab as a user of its own): chmod a+r it");
        }
        // Same decoding as File.ReadAllText: UTF-8, BOM detected and dropped.
        var text = new StreamReader(new MemoryStream(bytes), Encoding.UTF8, detectEncodingFromByteOrderMarks: true).ReadToEnd();
        var sha = string.Concat(Sha256(bytes).Select(b => b.ToString("x2")));
        var parts = (entry.Layout ?? DatasetEntry.Document) switch
        {
            DatasetEntry.Document => null,
            DatasetEntry.Lines => text.Split('\n', StringSplitOptions.RemoveEmptyEntries)
                .Select((line, i) => new Payload($"{entry.Name}[{i}]", entry.Model ?? NoModel, line, Encoding.UTF8.GetBytes(line), sha)).ToList(),
            var other => throw new LabException($"dataset '{entry.Name}' has unknown layout '{other}'", $"valid layouts: {DatasetEntry.Document}, {DatasetEntry.Lines}"),
        };
        return new Payload(entry.Name, entry.Model ?? NoModel, text, Encoding.UTF8.GetBytes(text), sha, parts, entry.Canonical);
    }

    internal static byte[] Sha256(byte[] bytes)
    {
#if LEGACY_RUNTIME
        return Compat.ManagedSha256.Hash(bytes);
#else
        return SHA256.HashData(bytes);
#endif
    }
}
