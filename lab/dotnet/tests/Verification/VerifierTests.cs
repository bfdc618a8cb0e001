using JsonLab.Adapters;
using JsonLab.Verification;

namespace JsonLab.Tests.Verification;

public class VerifierTests
{
    private const string Camel = """{"myString" : "abc", "myInteger" : 123, "myList" : ["abc", "123"]}""";

    [Fact]
    public void A_payload_that_binds_nothing_fails_and_names_every_field()
    {
        var result = Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", Camel));

        Assert.Equal("failed", result.Status);
        Assert.Equal(3, result.MismatchCount);
        Assert.Contains(result.Mismatches, m => m.StartsWith("MyInteger: expected 123, got 0"));
        Assert.Contains(result.Mismatches, m => m.StartsWith("MyString:"));
        Assert.Contains(result.Mismatches, m => m.StartsWith("MyList:"));
        Assert.Contains("MyInteger", result.Message);
    }

    [Fact]
    public void A_partly_bound_payload_names_only_the_fields_left_at_defaults()
    {
        var json = """{"MyString" : "abc", "myInteger" : 123, "MyList" : ["abc"]}""";

        var result = Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", json));

        Assert.Equal("failed", result.Status);
        Assert.Equal(["MyInteger: expected 123, got 0"], result.Mismatches);
    }

    [Theory]
    [InlineData("stj-case-insensitive")]
    [InlineData("stj-case-insensitive-utf8")]
    [InlineData("stj-case-insensitive-options-per-call")]
    [InlineData("stj-annotated")]
    [InlineData("stj-annotated-utf8")]
    [InlineData("stj-camel-policy")]
    [InlineData("stj-aspnetcore3-defaults-utf8")]
    [InlineData("newtonsoft-default")]
    public void Variants_that_match_camel_names_pass_on_the_camel_payload(string variant)
    {
        var result = Verifier.Verify(VariantRegistry.Find(variant), TestPayloads.Of("MyClass", Camel));

        Assert.Equal("passed", result.Status);
        Assert.Equal("passed", result.RoundTrip);
        Assert.Empty(result.Mismatches);
    }

    [Fact]
    public void The_employee_file_with_its_bom_verifies_for_a_case_insensitive_variant()
    {
        var result = Verifier.Verify(VariantRegistry.Find("stj-case-insensitive-utf8"), TestPayloads.Dataset("employee-data"));

        Assert.Equal("passed", result.Status);
        Assert.Equal("List<Employee>", result.ModelType);
    }

    [Fact]
    public void The_employee_file_under_default_options_fails_on_all_six_thousand_fields()
    {
        var result = Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Dataset("employee-data"));

        Assert.Equal("failed", result.Status);
        Assert.Equal(2000 * 3, result.MismatchCount);
        Assert.Equal("[0].FileId: expected 12, got 0", result.Mismatches[0]);
    }

    [Fact]
    public void A_deserializer_that_throws_is_a_failed_verification_not_a_crash()
    {
        var result = Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Of("MyClass", """{"MyInteger" : "not a number"}"""));

        Assert.Equal("failed", result.Status);
        Assert.StartsWith("System.Text.Json ", result.Message);
        Assert.Contains("cannot deserialize MyClass: JsonException:", result.Message);
        Assert.Equal(result.Message, result.OperationError);
    }

    [Fact]
    public void A_mismatch_that_is_only_a_date_format_passes_because_dates_compare_as_instants()
    {
        var json = """[{"Name":"A","Age":1,"DateOfBirth":"2024-12-02T07:14:10.4654521+00:00","IsMarried":true,"Children":["x"]}]""";

        var result = Verifier.Verify(VariantRegistry.Find("newtonsoft-default"), TestPayloads.Of("List<Person>", json));

        Assert.Equal("passed", result.Status);
    }

    [Fact]
    public void A_date_that_differs_by_a_fraction_of_a_second_is_a_mismatch()
    {
        var json = """[{"Name":"A","Age":1,"DateOfBirth":"2024-12-02T07:14:10.4654521Z","IsMarried":true,"Children":["x"]}]""";
        var payload = TestPayloads.Of("List<Person>", json);
        var value = (List<JsonLab.Models.Person>)JsonLab.Datasets.ReferenceReader.Read(payload, typeof(List<JsonLab.Models.Person>));
        var mismatches = new MismatchList();

        StructuralComparer.Compare(value, StructuralComparer.Parse(json.Replace(".4654521", ".0465452")), value.GetType(), "", mismatches);

        Assert.Equal(1, mismatches.Count);
        Assert.StartsWith("[0].DateOfBirth:", mismatches.Kept[0]);
    }
}
