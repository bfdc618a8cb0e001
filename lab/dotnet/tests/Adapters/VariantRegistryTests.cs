using JsonLab.Adapters;
using JsonLab.Datasets;

namespace JsonLab.Tests.Adapters;

public class VariantRegistryTests
{
    [Fact]
    public void Variant_names_are_unique()
    {
        var names = VariantRegistry.All.Select(a => a.Variant).ToList();

        Assert.Equal(names.Count, names.Distinct().Count());
    }

    [Fact]
    public void An_unknown_variant_lists_the_valid_names_and_suggests_a_near_spelling()
    {
        var error = Assert.Throws<LabException>(() => VariantRegistry.Find("stj-case-insensitve"));

        Assert.Contains("did you mean 'stj-case-insensitive'", error.Message);
        Assert.Contains("newtonsoft-default", error.Hint);
    }

    [Fact]
    public void Utf8_variants_serialize_to_bytes_and_string_variants_to_strings()
    {
        var payload = TestPayloads.Dataset("simple-models-1");
        // stj-sourcegen and stj-sourcegen-utf8 read the contexts of models declared as data only
        var declared = TestPayloads.Dataset("jsonsrcgen-kinds");
        foreach (var adapter in VariantRegistry.All.Where(a => a.Binding != JsonLab.Models.ModelBinding.CamelAnnotated && a is not IEscapingCheckAdapter))
        {
            var readsDeclaredOnly = adapter.Variant is "stj-sourcegen" or "stj-sourcegen-utf8";
            var output = JsonLab.Measurement.OperationBinder.Bind(adapter, readsDeclaredOnly ? declared : payload, "serialize")();
            Assert.IsType(adapter.Form == PayloadForm.Utf8Bytes ? typeof(byte[]) : typeof(string), output);
        }
    }

    [Fact]
    public void Every_library_reports_the_version_actually_loaded()
    {
        Assert.All(VariantRegistry.All, a => Assert.Matches(@"^\d+\.\d+", a.LibraryVersion));
    }
}
