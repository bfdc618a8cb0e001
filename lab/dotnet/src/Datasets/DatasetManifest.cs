using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonLab.Datasets;

/// <summary>datasets/manifest.json: the fixed inputs the lab may be asked to use.</summary>
public sealed record DatasetManifest(
    [property: JsonPropertyName("schema_version")] int SchemaVersion,
    [property: JsonPropertyName("datasets")] IReadOnlyList<DatasetEntry> Datasets)
{
    /// <summary>The manifest schema this lab understands.</summary>
    public const int SupportedSchemaVersion = 1;

    /// <summary>Reads the manifest from a datasets folder, with actionable errors.</summary>
    public static DatasetManifest Load(string datasetsDir)
    {
        var path = System.IO.Path.Combine(datasetsDir, "manifest.json");
        if (!File.Exists(path))
            throw new LabException($"no dataset manifest at {path}", "pass --datasets pointing at the repository's datasets/ folder");
        var manifest = JsonSerializer.Deserialize<DatasetManifest>(File.ReadAllBytes(path))
            ?? throw new LabException($"empty dataset manifest {path}", "restore datasets/manifest.json from git");
        if (manifest.SchemaVersion != SupportedSchemaVersion)
            throw new LabException(
                $"dataset manifest {path} has schema_version {manifest.SchemaVersion}; this lab reads {SupportedSchemaVersion}",
                "rebuild the lab from the same commit as the datasets (just build)");
        return manifest;
    }

    /// <summary>Finds a dataset by name, or throws listing the valid names.</summary>
    public DatasetEntry Find(string name) =>
        Datasets.FirstOrDefault(d => d.Name == name)
        ?? throw new LabException(
            $"unknown dataset '{name}'",
            $"valid datasets: {string.Join(", ", Datasets.Select(d => d.Name))}");
}
