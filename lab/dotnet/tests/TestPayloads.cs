using System.Text;
using JsonLab.Datasets;

namespace JsonLab.Tests;

/// <summary>Payloads built in memory, and the repository's datasets folder.</summary>
public static class TestPayloads
{
    /// <summary>A payload of the given model from literal JSON text.</summary>
    public static Payload Of(string model, string json) => new("test", model, json, Encoding.UTF8.GetBytes(json), "");

    /// <summary>The repository's datasets/ folder, found by walking up from the test binary.</summary>
    public static string DatasetsDir()
    {
        for (var dir = new DirectoryInfo(AppContext.BaseDirectory); dir is not null; dir = dir.Parent)
        {
            var candidate = Path.Combine(dir.FullName, "datasets", "manifest.json");
            if (File.Exists(candidate))
                return Path.GetDirectoryName(candidate)!;
        }
        throw new InvalidOperationException("datasets/manifest.json not found above the test binary");
    }

    /// <summary>False for a generated dataset not built on this machine (datasets/generated/ is kept out of git and built by
    /// `just datasets`); a committed dataset is always present, and a missing one fails the tests that read it.</summary>
    public static bool Present(string dir, DatasetEntry entry) =>
        !entry.Path.StartsWith("generated/", StringComparison.Ordinal) || File.Exists(Path.Combine(dir, entry.Path));

    /// <summary>A dataset of the repository, loaded as the lab loads it.</summary>
    public static Payload Dataset(string name)
    {
        var dir = DatasetsDir();
        return Payload.Load(dir, DatasetManifest.Load(dir).Find(name));
    }
}
