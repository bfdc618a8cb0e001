using JsonLab.Adapters;
using JsonLab.Measurement;
using JsonLab.Models;

namespace JsonLab.Verbs;

/// <summary>`list`: prints the variants, operations and models this lab offers as JSON.</summary>
public static class ListVerb
{
    public static int Execute(CliArgs args)
    {
        var listing = new
        {
            SchemaVersion = 1,
            Lab = "dotnet",
            Operations = OperationBinder.Operations,
            // Two steps in one timed call, offered by the variants marked composable (docs/experiments.md#composite-operations)
            Composites = OperationBinder.Composites,
            // Enums are written as their snake_case names here, not through a converter: the Native AOT build has no
            // generic converter instances for the lab's own enum collections.
            // Construction and SourceGen: what was built, read back from the CLR types (ModelReadback)
            Models = ModelCatalog.All.Select(m => new
            {
                m.Name,
                Bindings = BindingsOf(m).Select(b => LabJson.Name(b)).ToArray(),
                Construction = ModelReadback.Construction(m.Shapes[ModelBinding.Plain].Read),
                SourceGen = ModelReadback.SourceGen(m.Shapes[ModelBinding.Plain].Read),
            }).ToArray(),
            Variants = VariantRegistry.All.Select(a => new
            {
                a.Variant,
                a.Library,
                a.LibraryVersion,
                PayloadForm = LabJson.Name(a.Form),
                ModelBinding = LabJson.Name(a.Binding),
                a.Description,
                // What an experiment may set on this variant ("<variant>+<setting>=<value>", docs/experiments.md)
                // The composite operations it runs (two steps in one timed call)
                Composites = OperationBinder.CompositesOf(a),
                Settings = (a as ISettingsAdapter)?.Settings.Select(s => new { s.Name, s.Values, s.Meaning }).ToArray() ?? [],
            }).ToArray(),
            // The `conformance` verb's parsers: each library's untyped parse of raw bytes.
            Parsers = JsonLab.Conformance.ConformanceParsers.All.Select(p => new { Parser = p.Name, p.Library, LibraryVersion = p.Version(), p.Description }).ToArray(),
        };
        Console.WriteLine(LabJson.Write(listing));
        return 0;
    }

    private static IEnumerable<ModelBinding> BindingsOf(ModelEntry model) =>
        model.Shapes.Keys;
}
