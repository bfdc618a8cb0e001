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
public sealed record Payload(string Name, string Model, string Text, byte[] Utf8, string FileSha256)
{
    /// <summary>Loads a dataset file; the lab records the hash of what it read.</summary>
    public static Payload Load(string datasetsDir, DatasetEntry entry)
    {
        var path = Path.Combine(datasetsDir, entry.Path);
        if (!File.Exists(path))
            throw new LabException($"dataset '{entry.Name}' file is missing: {path}", "restore datasets/ from git");
        if (entry.Model is null)
            throw new LabException($"dataset '{entry.Name}' declares no model, so no typed variant can bind it", "pick a dataset with a model in datasets/manifest.json");
        var bytes = File.ReadAllBytes(path);
        // Same decoding as File.ReadAllText: UTF-8, BOM detected and dropped.
        var text = new StreamReader(new MemoryStream(bytes), Encoding.UTF8, detectEncodingFromByteOrderMarks: true).ReadToEnd();
        var sha = Convert.ToHexStringLower(SHA256.HashData(bytes));
        return new Payload(entry.Name, entry.Model, text, Encoding.UTF8.GetBytes(text), sha);
    }
}
