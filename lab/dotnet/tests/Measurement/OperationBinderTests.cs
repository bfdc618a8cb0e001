using JsonLab.Adapters;
using JsonLab.Measurement;
using JsonLab.Models;

namespace JsonLab.Tests.Measurement;

public class OperationBinderTests
{
    private const string Pascal = """{"MyString" : "abc", "MyInteger" : 123, "MyList" : ["abc", "123"]}""";

    [Fact]
    public void A_bound_deserialize_returns_the_model_type_of_the_variants_binding()
    {
        var op = OperationBinder.Bind(VariantRegistry.Find("stj-annotated"), TestPayloads.Of("MyClass", Pascal), "deserialize");

        Assert.IsType<MyClassCamelAnnotated>(op());
    }

    [Fact]
    public void A_bound_serialize_writes_what_the_variant_read()
    {
        var op = OperationBinder.Bind(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", Pascal), "serialize");

        Assert.Equal("""{"MyInteger":123,"MyString":"abc","MyList":["abc","123"]}""", op());
    }

    [Fact]
    public void An_unknown_operation_names_the_valid_ones()
    {
        var error = Assert.Throws<LabException>(() => OperationBinder.Bind(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", Pascal), "parse"));

        Assert.Contains("deserialize, serialize", error.Hint);
    }

    [Fact]
    public void A_model_without_an_annotated_twin_is_an_explained_error()
    {
        var error = Assert.Throws<LabException>(() =>
            OperationBinder.Bind(VariantRegistry.Find("stj-annotated"), TestPayloads.Of("Employee", "{}"), "deserialize"));

        Assert.Contains("no CamelAnnotated twin", error.Message);
    }
}
