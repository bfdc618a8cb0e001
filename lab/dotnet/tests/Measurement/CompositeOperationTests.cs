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
        Assert.Contains("each step verified alone", verification.Message);
        if (operation == OperationBinder.SerializeThenDeserialize)
            Assert.Equal(123, Assert.IsType<JsonLab.Models.MyClass>(result).MyInteger);
        else
            Assert.Contains("123", Verifier.AsText(result!));
    }

    [Fact]
    public void A_chain_of_an_array_model_reads_and_writes_every_element()
    {
        var payload = TestPayloads.Dataset("simple-models-1");
        var verification = Verifier.Verify(VariantRegistry.Find("stj-camel-policy"), payload, OperationBinder.DeserializeThenSerialize);

        Assert.True(verification.Status == "passed", verification.Message);
    }

    [Fact]
    public void A_step_that_fails_alone_fails_the_chain_and_says_which()
    {
        var verification = Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", """{"myInteger": 123}"""),
            OperationBinder.SerializeThenDeserialize);

        Assert.Equal("failed", verification.Status);
        Assert.StartsWith("step deserialize alone:", verification.Message);
    }

    [Fact]
    public void A_variant_that_cannot_chain_its_steps_fails_with_the_reason()
    {
        var adapter = VariantRegistry.Find("jsonsrcgen");
        var verification = Verifier.Verify(adapter, TestPayloads.Dataset("simple-models-1"), OperationBinder.SerializeThenDeserialize);

        Assert.Equal("failed", verification.Status);
        Assert.Contains("cannot chain its steps inside one call", verification.OperationError);
        Assert.Throws<LabException>(() => OperationBinder.Bind(adapter, TestPayloads.Dataset("simple-models-1"), OperationBinder.SerializeThenDeserialize));
    }
}
