namespace JsonLab.Datasets.Generators;

/// <summary>
/// Writes one generated dataset deterministically: the same generator, count and seed give the same bytes
/// (with the Bogus version pinned in the lock file). The outputs are committed; `just datasets` regenerates
/// them and the harness checks them against datasets/manifest.json.
/// </summary>
public interface IDatasetGenerator
{
    /// <summary>Name used on the command line (`generate --generator NAME`).</summary>
    string Name { get; }

    /// <summary>One sentence on what is generated and how, for `list` and provenance.</summary>
    string Description { get; }

    /// <summary>The file's bytes for <paramref name="count"/> items from <paramref name="seed"/>; <paramref name="item"/>
    /// picks one of several outputs where a generator has them (a model, a test case).</summary>
    byte[] Generate(int count, int seed, string? item = null);
}

/// <summary>Every generator, by name.</summary>
public static class DatasetGenerators
{
    public static readonly IReadOnlyList<IDatasetGenerator> All = [new SimpleModelGenerator(), new PersonArrayGenerator(), new PersonLinesGenerator(), new DotnetPerformanceGenerator(), new EscapingCaseGenerator()];

    public static IDatasetGenerator Find(string name) =>
        All.FirstOrDefault(g => g.Name == name)
        ?? throw new LabException($"unknown generator '{name}'", $"valid generators: {string.Join(", ", All.Select(g => g.Name))}");
}
