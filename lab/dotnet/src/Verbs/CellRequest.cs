using JsonLab.Adapters;
using JsonLab.Datasets;

namespace JsonLab.Verbs;

/// <summary>One cell of a `run` or `once` command line: the variant, its loaded dataset and operation, and where its files go.</summary>
public sealed record CellRequest(ISerializerAdapter Adapter, Payload Payload, string Operation, string OutDir)
{
    /// <summary>"variant/dataset/operation", the cell's name inside the lab (and BenchmarkDotNet's Cell parameter).</summary>
    public string Name => $"{Adapter.Variant}/{Payload.Name}/{Operation}";

    /// <summary>Resolves --variant, --dataset, --operation and --datasets (one cell, files in --out).</summary>
    public static CellRequest From(CliArgs args) =>
        Load(VariantRegistry.Find(args.Required("variant")), args.Required("datasets"), args.Required("dataset"),
            args.Optional("operation", "deserialize"), args.Optional("out", "."));

    /// <summary>
    /// The cells of one process: every `--cell DATASET/OPERATION=OUTDIR` (all of one --variant), or, without
    /// --cell, the one cell of --dataset/--operation written to --out.
    /// </summary>
    public static IReadOnlyList<CellRequest> AllFrom(CliArgs args)
    {
        if (args.All("cell").Count == 0)
            return [From(args)];
        var adapter = VariantRegistry.Find(args.Required("variant"));
        var datasets = args.Required("datasets");
        return args.All("cell").Select(spec =>
        {
            var (what, outDir) = Split(spec, '=', "--cell DATASET/OPERATION=OUTDIR");
            var (dataset, operation) = Split(what, '/', "--cell DATASET/OPERATION=OUTDIR");
            return Load(adapter, datasets, dataset, operation, outDir);
        }).ToList();
    }

    /// <summary>One --member VARIANT/DATASET/OPERATION=OUTDIR of `paired` (a variant with settings has '=' of its own, before the first '/').</summary>
    public static CellRequest Member(string spec, string datasets)
    {
        var slash = spec.IndexOf('/');
        var at = slash < 0 ? -1 : spec.IndexOf('=', slash);
        var parts = at > 0 ? spec[..at].Split('/') : [];
        if (parts.Length != 3 || parts.Any(p => p.Length == 0) || at == spec.Length - 1)
            throw new LabException($"'{spec}' is not of the form VARIANT/DATASET/OPERATION=OUTDIR", "e.g. --member stj-default/simple-models-1/serialize=out/stj");
        return Load(VariantRegistry.Find(parts[0]), datasets, parts[1], parts[2], spec[(at + 1)..]);
    }

    internal static CellRequest Load(ISerializerAdapter adapter, string datasetsDir, string dataset, string operation, string outDir)
    {
        var entry = DatasetManifest.Load(datasetsDir).Find(dataset);
        return new CellRequest(adapter, Payload.Load(datasetsDir, entry), operation, Path.GetFullPath(outDir));
    }

    private static (string, string) Split(string text, char separator, string form)
    {
        var at = text.IndexOf(separator);
        return at > 0 && at < text.Length - 1
            ? (text[..at], text[(at + 1)..])
            : throw new LabException($"'{text}' is not of the form {form}", "e.g. --cell simple-models-1/serialize=out/cell-1");
    }
}
