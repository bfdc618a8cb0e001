using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Datasets.Generators;
using JsonLab.Measurement;
using JsonLab.Verification;

namespace JsonLab.Tests.Adapters;

/// <summary>Write-up 004's nine libraries and write-up 003's inputs: each adapter goes through the generic verification.</summary>
public class CatalogueAdapterTests
{
    public static TheoryData<string> CatalogueVariants() =>
    [
        "stj-camel-policy", "stj-camel-policy-utf8", "stj-sourcegen-camel", "stj-sourcegen-camel-utf8",
        "newtonsoft-camel-iso", "newtonsoft-camel-iso-utf8", "jil-camel-iso", "jil-camel-iso-utf8",
        "netjson-camel-iso-utc", "netjson-camel-iso-utc-utf8",
#if LAB_SERVICESTACK
        "servicestack-camel-iso-utc", "servicestack-camel-iso-utc-utf8",
#endif
        "spanjson-default", "spanjson-default-utf8", "utf8json-default", "utf8json-default-utf8", "jsonsrcgen", "jsonsrcgen-utf8",
    ];

    private static bool JilCanRead => Environment.Version.Major < 9;

    [Theory]
    [MemberData(nameof(CatalogueVariants))]
    public void Every_catalogue_variant_writes_the_simple_models_field_by_field(string variant)
    {
        var result = Verifier.Verify(VariantRegistry.Find(variant), TestPayloads.Dataset("simple-models-100"), "serialize");

        Assert.True(result.Status == "passed", result.Message);
        Assert.Null(result.OperationError);
    }

    [Theory]
    [MemberData(nameof(CatalogueVariants))]
    public void Every_catalogue_variant_reads_the_simple_models_or_reports_why_it_cannot(string variant)
    {
        var result = Verifier.Verify(VariantRegistry.Find(variant), TestPayloads.Dataset("simple-models-100"), "deserialize");

        if (variant.StartsWith("jil") && !JilCanRead)
        {
            // Jil 3.0.0-alpha2 looks TimeSpan.FromSeconds up by name; .NET 9 added overloads (kevin-montrose/Jil#363).
            Assert.Equal("failed", result.Status);
            Assert.StartsWith("Jil 3.0.0-alpha2 cannot deserialize ICollection<SimpleModel>: ", result.OperationError);
        }
        else
        {
            Assert.True(result.Status == "passed", result.Message);
            Assert.Equal("passed", result.RoundTrip);
        }
    }

    [Fact]
    public void A_library_that_cannot_run_fails_the_cell_before_timing_with_its_first_error_line()
    {
        if (JilCanRead)
            return; // the failure only exists on .NET 9+
        var result = Verifier.Verify(VariantRegistry.Find("jil-camel-iso"), TestPayloads.Dataset("simple-models-1"), "deserialize");

        // In a fresh process the first line names the root cause (AmbiguousMatchException for TimeSpan.FromSeconds);
        // once Jil's type initializer has failed in this test process, later calls report a NullReferenceException.
        Assert.NotNull(result.OperationError);
        Assert.StartsWith("Jil 3.0.0-alpha2 cannot deserialize", result.OperationError);
        Assert.DoesNotContain('\n', result.OperationError);
        Assert.Contains("Root cause: ", result.OperationError);
    }

    [Theory]
    [InlineData("stj-camel-policy", "String")]
    [InlineData("netjson-camel-iso-utc-utf8", "Utf8Bytes")]
    public void Options_are_built_once_per_adapter_and_the_form_picks_the_output_type(string variant, string form)
    {
        var adapter = VariantRegistry.Find(variant);
        var payload = TestPayloads.Dataset("simple-models-1");

        var first = OperationBinder.Bind(adapter, payload, "serialize")();
        var second = OperationBinder.Bind(adapter, payload, "serialize")();

        Assert.Equal(form, adapter.Form.ToString());
        Assert.Equal(first is byte[] a ? Convert.ToBase64String(a) : first, second is byte[] b ? Convert.ToBase64String(b) : second);
    }

    [Fact]
    public void Deserialize_cells_read_the_interface_the_write_up_used_and_serialize_cells_write_arrays()
    {
        var adapter = VariantRegistry.Find("stj-camel-policy");
        var payload = TestPayloads.Dataset("simple-models-1");

        Assert.Equal(typeof(ICollection<JsonLab.Models.SimpleModel>), OperationBinder.TypeOf(adapter, payload, "deserialize"));
        Assert.Equal(typeof(JsonLab.Models.SimpleModel[]), OperationBinder.TypeOf(adapter, payload, "serialize"));
        Assert.Equal(typeof(JsonLab.Models.SimpleSrcGenModel[]), OperationBinder.TypeOf(VariantRegistry.Find("jsonsrcgen"), payload, "deserialize"));
    }

    [Fact]
    public void JsonSrcGen_refuses_a_model_it_has_no_generated_code_for()
    {
        var error = Assert.Throws<LabException>(() => VariantRegistry.Find("jsonsrcgen").BindDeserialize<JsonLab.Models.Employee>(TestPayloads.Of("Employee", "{}")));

        Assert.Contains("no generated code", error.Message);
    }

    [Fact]
    public void NetJSON_iso_dates_lose_leading_zeros_of_the_fraction_and_verification_says_so()
    {
        var result = Verifier.Verify(VariantRegistry.Find("netjson-camel-iso-utc"), TestPayloads.Dataset("persons-10000"), "serialize");

        Assert.Equal("failed", result.Status);
        Assert.Contains(result.Mismatches, m => m.Contains("DateOfBirth"));
    }

    [Fact]
    public void A_json_lines_dataset_is_verified_document_by_document_and_measured_as_one_loop()
    {
        var payload = TestPayloads.Dataset("person-lines-10000");
        var adapter = VariantRegistry.Find("stj-default");

        var result = Verifier.Verify(adapter, payload, "deserialize");
        var last = OperationBinder.Bind(adapter, payload, "deserialize")();

        Assert.Equal(10_000, payload.Documents.Count);
        Assert.True(result.Status == "passed", result.Message);
        Assert.StartsWith("all 10000 documents", result.Message);
        Assert.Equal(ReferenceReader.Read(payload.Documents[^1], typeof(JsonLab.Models.Person)) is JsonLab.Models.Person p ? p.Name : null,
            ((JsonLab.Models.Person)last!).Name);
    }

    [Theory]
    [InlineData("simple-models", 100, 4, "simple-models-100")]
    [InlineData("persons", 10_000, 3, "persons-10000")]
    [InlineData("person-lines", 10_000, 3, "person-lines-10000")]
    public void Generated_datasets_regenerate_byte_for_byte(string generator, int count, int seed, string dataset)
    {
        var bytes = DatasetGenerators.Find(generator).Generate(count, seed);
        var entry = DatasetManifest.Load(TestPayloads.DatasetsDir()).Find(dataset);

        Assert.Equal(entry.Sha256, Convert.ToHexStringLower(System.Security.Cryptography.SHA256.HashData(bytes)));
    }
}
