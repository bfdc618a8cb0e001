using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Measurement;
using JsonLab.Models;
using JsonLab.Verification;

namespace JsonLab.Verbs;

/// <summary>
/// `verify`: for every variant × dataset (or the ones named with --variant / --dataset) and operation
/// (--operation, default both), checks the variant reads or writes the dataset correctly. Prints JSON.
/// Exits 0 when all checks ran (failures are data), 1 with --strict when any failed.
/// </summary>
public static class VerifyVerb
{
    public static int Execute(CliArgs args)
    {
        var datasetsDir = args.Required("datasets");
        var manifest = DatasetManifest.Load(datasetsDir);
        var variants = args.All("variant").Count > 0 ? args.All("variant").Select(VariantRegistry.Find).ToList() : VariantRegistry.All.ToList();
        var datasets = args.All("dataset").Count > 0
            ? args.All("dataset").Select(manifest.Find).ToList()
            : manifest.Datasets.Where(d => d.Model is not null || d.Canonical is not null).ToList();

        var operations = args.All("operation").Count > 0 ? args.All("operation").ToList() : OperationBinder.Operations.ToList();
        var results = new List<VerificationResult>();
        foreach (var entry in datasets)
        {
            var payload = Payload.Load(datasetsDir, entry);
            foreach (var adapter in variants.Where(a => Binds(a, payload)))
                foreach (var operation in operations.Where(op => (op == OperationBinder.NeedsEscaping) == (adapter is IEscapingCheckAdapter)))
                {
                    var result = Verifier.Verify(adapter, payload, operation);
                    Console.Error.WriteLine($"{result.Status,-7} {adapter.Variant} × {entry.Name} {operation}: {result.Message}");
                    results.Add(result);
                }
        }
        Console.WriteLine(LabJson.Write(results));
        var strict = args.Optional("strict", "false") == "true";
        return strict && results.Any(r => r.Status != "passed") ? 1 : 0;
    }

    /// <summary>A document variant binds every dataset with a canonical digest; a typed one, the datasets whose model has its twin.</summary>
    private static bool Binds(ISerializerAdapter adapter, Payload payload) =>
        adapter.Binding == ModelBinding.Document
            ? payload.Canonical is not null && payload.Parts is null
            : payload.Model != Payload.NoModel && ModelCatalog.Find(payload.Model).ShapeFor(adapter.Binding) is not null;
}
