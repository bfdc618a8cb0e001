using JsonLab.Adapters;
using JsonLab.Datasets;

namespace JsonLab.Verbs;

/// <summary>The variant, dataset and operation named on a run/once command line, resolved and loaded.</summary>
public sealed record CellRequest(ISerializerAdapter Adapter, Payload Payload, string Operation)
{
    /// <summary>"variant/dataset/operation", the cell's name inside the lab.</summary>
    public string Name => $"{Adapter.Variant}/{Payload.Name}/{Operation}";

    /// <summary>Resolves --variant, --dataset, --operation and --datasets.</summary>
    public static CellRequest From(CliArgs args)
    {
        var adapter = VariantRegistry.Find(args.Required("variant"));
        var datasetsDir = args.Required("datasets");
        var entry = DatasetManifest.Load(datasetsDir).Find(args.Required("dataset"));
        return new CellRequest(adapter, Payload.Load(datasetsDir, entry), args.Optional("operation", "deserialize"));
    }
}
