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
            Models = ModelCatalog.All.Select(m => new { m.Name, Bindings = BindingsOf(m) }),
            Variants = VariantRegistry.All.Select(a => new
            {
                a.Variant,
                a.Library,
                a.LibraryVersion,
                PayloadForm = a.Form,
                ModelBinding = a.Binding,
                a.Description,
            }),
        };
        Console.WriteLine(LabJson.Write(listing));
        return 0;
    }

    private static IEnumerable<ModelBinding> BindingsOf(ModelEntry model) =>
        model.Shapes.Keys;
}
