using JsonLab.Adapters;
using JsonLab.Measurement;
using JsonLab.Verification;

namespace JsonLab.Tests.Adapters;

/// <summary>Settings an experiment gives a variant ("stj-default+naming=snake_case_lower"): applied, checked, verified.</summary>
public class VariantSettingsTests
{
    private const string Pascal = """{"MyString" : "abc", "MyInteger" : 123, "MyList" : ["abc", "123"]}""";
    private const string Snake = """{"my_string" : "abc", "my_integer" : 123, "my_list" : ["abc", "123"]}""";

    private static string Serialize(string variant, string json = Pascal) =>
        (string)OperationBinder.Bind(VariantRegistry.Find(variant), TestPayloads.Of("MyClass", json), "serialize")();

    [Fact]
    public void System_text_json_settings_change_the_output_and_leave_the_base_variant_as_it_was()
    {
        var output = Serialize("stj-default+indented=true+naming=snake_case_lower");

        Assert.Contains("\"my_integer\": 123", output);
        Assert.Contains("\n", output);
        Assert.DoesNotContain("\n", Serialize("stj-default"));
        Assert.Contains("\"MyInteger\":123", Serialize("stj-default"));
    }

    [Fact]
    public void A_setting_replaces_the_base_variants_own()
    {
        Assert.Contains("\"MyInteger\":123", Serialize("stj-camel-policy+naming=as_declared"));
        Assert.Contains("\"my_integer\":123", Serialize("newtonsoft-camel-iso+naming=snake_case_lower"));
    }

    [Fact]
    public void Newtonsoft_settings_change_the_output()
    {
        var output = Serialize("newtonsoft-default+indented=true+naming=camelCase");

        Assert.Contains("\"myInteger\": 123", output);
        Assert.Contains("\n", output);
    }

    [Theory]
    [InlineData("stj-default+naming=snake_case_lower")]
    [InlineData("stj-default-utf8+case_insensitive=false+naming=snake_case_lower")]
    [InlineData("stj-default+naming=snake_case_lower+options_per_call=true")]
    [InlineData("newtonsoft-default+naming=snake_case_lower")]
    public void A_variant_with_settings_verifies_on_a_document_of_its_naming(string variant)
    {
        var adapter = VariantRegistry.Find(variant);
        var result = Verifier.Verify(adapter, TestPayloads.Of("MyClass", Snake));

        Assert.Equal("passed", result.Status);
        Assert.Equal(variant, adapter.Variant);
        Assert.Contains("settings: ", adapter.Description);
    }

    [Theory]
    [InlineData("stj-sourcegen-camel+indented=true+naming=snake_case_lower", "serialize")]
    [InlineData("stj-sourcegen-camel-utf8+naming=kebab_case_upper", "serialize")]
    [InlineData("stj-sourcegen-camel+case_insensitive=true+naming=as_declared", "deserialize")]
    [InlineData("stj-sourcegen-camel+escaping=relaxed+ignore_nulls=true", "serialize-then-deserialize")]
    public void A_source_generated_variant_takes_its_settings_at_run_time_and_verifies(string variant, string operation)
    {
        var adapter = VariantRegistry.Find(variant);
        var result = Verifier.Verify(adapter, TestPayloads.Dataset("jsonsrcgen-kinds"), operation);

        Assert.True(result.Status == "passed", result.Message);
        Assert.Contains("settings: ", adapter.Description);
    }

    [Fact]
    public void A_source_generated_variants_settings_change_its_output_and_not_the_base_variants()
    {
        var payload = TestPayloads.Dataset("jsonsrcgen-kinds");
        string Output(string variant) => (string)OperationBinder.Bind(VariantRegistry.Find(variant), payload, "serialize")()!;

        var snake = Output("stj-sourcegen-camel+indented=true+naming=snake_case_lower");
        Assert.Contains("\"unsigned_short\": ", snake);
        Assert.Contains("\n", snake);
        Assert.Contains("\"unsignedShort\":", Output("stj-sourcegen-camel"));
        Assert.Contains("\"UnsignedShort\":", Output("stj-sourcegen-camel+naming=as_declared"));
        Assert.DoesNotContain("\n", Output("stj-sourcegen-camel"));
    }

    [Theory]
    [InlineData("stj-sourcegen-camel+enums_as_strings=true")]
    [InlineData("stj-sourcegen-camel+options_per_call=true")]
    public void A_source_generated_variant_refuses_what_its_context_cannot_take_at_run_time(string variant)
    {
        var error = Assert.Throws<LabException>(() => VariantRegistry.Find(variant));

        Assert.Contains("has no setting", error.Message);
    }

    [Fact]
    public void Settings_out_of_order_are_refused_with_the_name_to_write()
    {
        var error = Assert.Throws<LabException>(() => VariantRegistry.Find("stj-default+naming=camelCase+indented=true"));

        Assert.Contains("stj-default+indented=true+naming=camelCase", error.Hint);
    }

    [Theory]
    [InlineData("stj-default+colour=blue", "has no setting 'colour'")]
    [InlineData("stj-default+naming=shouting", "cannot be 'shouting'")]
    [InlineData("stj-default+indented", "is not a setting")]
    [InlineData("stj-default+indented=true+indented=true", "repeat or are out of order")]
    [InlineData("spanjson-default+indented=true", "takes no settings")]
    [InlineData("stj-defualt+indented=true", "did you mean 'stj-default'")]
    public void A_wrong_setting_is_refused_with_what_the_variant_takes(string variant, string message)
    {
        var error = Assert.Throws<LabException>(() => VariantRegistry.Find(variant));

        Assert.Contains(message, error.Message);
    }

    [Fact]
    public void Every_settable_variant_lists_settings_whose_values_all_apply()
    {
        var declared = TestPayloads.Dataset("jsonsrcgen-kinds");
        foreach (var adapter in VariantRegistry.All.OfType<ISettingsAdapter>())
            foreach (var spec in adapter.Settings)
                foreach (var value in spec.Values)
                {
                    var name = $"{((ISerializerAdapter)adapter).Variant}+{spec.Name}={value}";
                    var payload = adapter is StjSourceGenAdapter ? declared : TestPayloads.Of("MyClass", Pascal);
                    var output = OperationBinder.Bind(VariantRegistry.Find(name), payload, "serialize")();
                    Assert.NotNull(output);
                }
    }
}

public class MemberNamesTests
{
    [Fact]
    public void Snake_and_kebab_names_are_found_only_while_a_variant_that_writes_them_is_verified()
    {
        Assert.Equal(-1, MemberNames.Find(["my_integer"], "MyInteger"));
        using (MemberNames.For(VariantRegistry.Find("stj-default+naming=snake_case_lower")))
            Assert.Equal(0, MemberNames.Find(["my_integer"], "MyInteger"));
        using (MemberNames.For(VariantRegistry.Find("stj-default+naming=camelCase")))
            Assert.Equal(-1, MemberNames.Find(["my_integer"], "MyInteger"));
        Assert.Equal(-1, MemberNames.Find(["my_integer"], "MyInteger"));
    }

    [Fact]
    public void An_exact_name_comes_before_one_equal_ignoring_case()
    {
        Assert.Equal(1, MemberNames.Find(["name", "Name"], "Name"));
        Assert.Equal(0, MemberNames.Find(["Name", "name"], "Name", last: true));
        Assert.Equal(0, MemberNames.Find(["NAME", "x"], "Name"));
    }
}
