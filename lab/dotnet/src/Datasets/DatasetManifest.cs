using System.Text.Json;

namespace JsonLab.Datasets;

/// <summary>datasets/manifest.json: the fixed inputs the lab may be asked to use.</summary>
public sealed record DatasetManifest(int SchemaVersion, IReadOnlyList<DatasetEntry> Datasets)
{
    /// <summary>The manifest schema this lab understands.</summary>
    public const int SupportedSchemaVersion = 1;

    /// <summary>Reads the manifest from a datasets folder, with actionable errors.</summary>
    public static DatasetManifest Load(string datasetsDir)
    {
        var path = System.IO.Path.Combine(datasetsDir, "manifest.json");
        if (!File.Exists(path))
            throw new LabException($"no dataset manifest at {path}", "pass --datasets pointing at the repository's datasets/ folder");
        var manifest = Read(File.ReadAllBytes(path), path);
        if (manifest.SchemaVersion != SupportedSchemaVersion)
            throw new LabException(
                $"dataset manifest {path} has schema_version {manifest.SchemaVersion}; this lab reads {SupportedSchemaVersion}",
                "rebuild the lab from the same commit as the datasets (just build)");
        return manifest;
    }

    /// <summary>Reads the manifest with JsonDocument, not the serializer: .NET Core 3.1's in-box System.Text.Json cannot
    /// deserialize records (no parameterless constructor), and the lab reads its inputs the same way on every runtime.</summary>
    private static DatasetManifest Read(byte[] utf8, string path)
    {
        try
        {
            using var document = JsonDocument.Parse(utf8);
            var root = document.RootElement;
            static string? Text(JsonElement entry, string name) =>
                entry.TryGetProperty(name, out var value) && value.ValueKind == JsonValueKind.String ? value.GetString() : null;
            var entries = root.GetProperty("datasets").EnumerateArray().Select(e => new DatasetEntry(
                Text(e, "name") ?? throw new KeyNotFoundException("a dataset without 'name'"),
                Text(e, "path") ?? throw new KeyNotFoundException($"dataset '{Text(e, "name")}' without 'path'"),
                e.GetProperty("bytes").GetInt64(),
                Text(e, "sha256") ?? "",
                Text(e, "model"),
                Text(e, "layout"),
                e.TryGetProperty("canonical", out var c) && c.ValueKind == JsonValueKind.Object
                    ? new CanonicalDigest(Text(c, "rule") ?? "", Text(c, "sha256") ?? "", c.GetProperty("leaves").GetInt64())
                    : null)).ToList();
            return new DatasetManifest(root.GetProperty("schema_version").GetInt32(), entries);
        }
        catch (Exception e) when (e is JsonException or KeyNotFoundException or InvalidOperationException or FormatException)
        {
            throw new LabException($"dataset manifest {path} is not readable: {e.Message}", "restore datasets/manifest.json from git, or fix the entry it names");
        }
    }

    /// <summary>Finds a dataset by name, or throws listing the valid names.</summary>
    public DatasetEntry Find(string name) =>
        Datasets.FirstOrDefault(d => d.Name == name)
        ?? throw new LabException(
            $"unknown dataset '{name}'",
            $"valid datasets: {string.Join(", ", Datasets.Select(d => d.Name))}");
}
