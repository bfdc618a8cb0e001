using JsonLab.Adapters;
using JsonLab.Measurement;
using JsonLab.Verification;

namespace JsonLab.Tests.Measurement;

/// <summary>Composite operations: two steps in one timed call, each the library call of the step alone, verified twice over.</summary>
public class CompositeOperationTests
{
    private const string Pascal = """{"MyString" : "abc", "MyInteger" : 123, "MyList" : ["abc", "123"]}""";

    [Theory]
    [InlineData("stj-default", OperationBinder.SerializeThenDeserialize)]
    [InlineData("stj-default-utf8", OperationBinder.DeserializeThenSerialize)]
    [InlineData("stj-default+indented=true", OperationBinder.SerializeThenDeserialize)]
    [InlineData("newtonsoft-default", OperationBinder.DeserializeThenSerialize)]
    [InlineData("spanjson-default-utf8", OperationBinder.SerializeThenDeserialize)]
    [InlineData("utf8json-default", OperationBinder.DeserializeThenSerialize)]
    [InlineData("netjson-default", OperationBinder.SerializeThenDeserialize)]
    public void A_composable_variant_chains_its_steps_and_the_chain_verifies(string variant, string operation)
    {
        var adapter = VariantRegistry.Find(variant);
        var payload = TestPayloads.Of("MyClass", Pascal);

        var result = OperationBinder.Bind(adapter, payload, operation)();
        var verification = Verifier.Verify(adapter, payload, operation);

        Assert.Equal("passed", verification.Status);
        Assert.Contains("verified alone; the chain's result matches", verification.Message);
        if (operation == OperationBinder.SerializeThenDeserialize)
            Assert.Equal(123, Assert.IsType<JsonLab.Models.MyClass>(result).MyInteger);
        else
            Assert.Contains("123", Verifier.AsText(result!));
    }

    [Fact]
    public void A_round_trip_of_names_the_dataset_does_not_use_verifies_as_it_runs()
    {
        // stj-default writes MyInteger and reads MyInteger back: correct, though alone it binds nothing of a camelCase document
        var camel = TestPayloads.Of("MyClass", """{"myString" : "abc", "myInteger" : 123, "myList" : ["abc"]}""");
        var adapter = VariantRegistry.Find("stj-default");

        Assert.Equal("failed", Verifier.Verify(adapter, camel, "deserialize").Status);
        Assert.Equal("passed", Verifier.Verify(adapter, camel, OperationBinder.SerializeThenDeserialize).Status);
    }

    [Fact]
    public void A_first_step_that_fails_alone_fails_the_chain_and_says_which()
    {
        var verification = Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", """{"myInteger": 123}"""),
            OperationBinder.DeserializeThenSerialize);

        Assert.Equal("failed", verification.Status);
        Assert.StartsWith("step deserialize alone:", verification.Message);
    }

    [Fact]
    public void A_model_whose_read_and_write_types_differ_has_no_composite()
    {
        var payload = TestPayloads.Dataset("simple-models-1");
        var error = Assert.Throws<LabException>(() => OperationBinder.Bind(VariantRegistry.Find("stj-camel-policy"), payload, OperationBinder.DeserializeThenSerialize));

        Assert.Contains("read and write types agree", error.Hint);
        Assert.Throws<LabException>(() => Verifier.Verify(VariantRegistry.Find("stj-camel-policy"), payload, OperationBinder.SerializeThenDeserialize));
    }

    [Fact]
    public void A_variant_that_cannot_chain_its_steps_fails_with_the_reason()
    {
        var adapter = VariantRegistry.Find("stj-jsondocument");
        var payload = TestPayloads.Dataset("myclass-pascal");

        Assert.False(OperationBinder.IsComposable(adapter));
        Assert.Throws<LabException>(() => OperationBinder.Bind(VariantRegistry.Find("jsonsrcgen"), TestPayloads.Of("SimpleModel[]", "[]"), OperationBinder.SerializeThenDeserialize));
        var verification = Verifier.Verify(adapter, payload, OperationBinder.SerializeThenDeserialize);
        Assert.Equal("failed", verification.Status);
        Assert.Contains("cannot chain its steps inside one call", verification.OperationError);
    }

    [Theory]
    [InlineData("stj-jsondocument", "every-primitive")]
    [InlineData("stj-jsondocument-utf8", "jsonsrcgen-kinds")]
    [InlineData("stj-jsonnode", "every-primitive")]
    [InlineData("stj-jsonnode-utf8", "myclass-camel")]
    [InlineData("newtonsoft-jtoken", "employee-single")] // not every-primitive: JToken's canonical form of it differs (findings.md)
    [InlineData("newtonsoft-jtoken-utf8", "jsonsrcgen-kinds")]
    public void A_document_variant_parses_then_reads_every_value_and_counts_the_datasets_leaves(string variant, string dataset)
    {
        var adapter = VariantRegistry.Find(variant);
        var payload = TestPayloads.Dataset(dataset);

        var leaves = OperationBinder.Bind(adapter, payload, OperationBinder.DeserializeThenRead)();
        var verification = Verifier.Verify(adapter, payload, OperationBinder.DeserializeThenRead);

        Assert.Equal(payload.Canonical!.Leaves, Assert.IsType<long>(leaves));
        Assert.True(verification.Status == "passed", verification.Message);
    }

    [Fact]
    public void The_timed_read_returns_its_count_without_allocating_once_it_is_the_datasets()
    {
        var call = OperationBinder.Bind(VariantRegistry.Find("stj-jsondocument-utf8"), TestPayloads.Dataset("every-primitive"), OperationBinder.DeserializeThenRead);

        Assert.Same(call(), call());
    }

    [Fact]
    public void Reading_every_value_is_for_document_variants()
    {
        var payload = TestPayloads.Of("MyClass", Pascal);
        var error = Assert.Throws<LabException>(() => OperationBinder.Bind(VariantRegistry.Find("stj-default"), payload, OperationBinder.DeserializeThenRead));

        Assert.Contains("document variant", error.Hint);
        Assert.Equal([OperationBinder.DeserializeThenRead], OperationBinder.CompositesOf(VariantRegistry.Find("newtonsoft-jtoken")));
        Assert.DoesNotContain(OperationBinder.DeserializeThenRead, OperationBinder.CompositesOf(VariantRegistry.Find("newtonsoft-default")));
    }
}
