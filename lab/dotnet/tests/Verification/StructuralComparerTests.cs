using JsonLab.Models;
using JsonLab.Verification;

namespace JsonLab.Tests.Verification;

public class StructuralComparerTests
{
    private static MismatchList Compare(object? actual, string json, Type type)
    {
        var mismatches = new MismatchList();
        StructuralComparer.Compare(actual, StructuralComparer.Parse(json), type, "", mismatches);
        return mismatches;
    }

    [Fact]
    public void Equal_objects_have_no_mismatch_and_extra_json_members_are_ignored()
    {
        var actual = new MyClass { MyInteger = 1, MyString = "a", MyList = ["x"] };

        var mismatches = Compare(actual, """{"myInteger":1,"MYSTRING":"a","myList":["x"],"unmodelled":true}""", typeof(MyClass));

        Assert.Equal(0, mismatches.Count);
    }

    [Fact]
    public void A_shorter_list_is_reported_with_both_lengths()
    {
        var actual = new MyClass { MyInteger = 1, MyString = "a", MyList = ["x"] };

        var mismatches = Compare(actual, """{"MyInteger":1,"MyString":"a","MyList":["x","y"]}""", typeof(MyClass));

        Assert.Equal(["MyList: expected 2 elements, got 1 elements"], mismatches.Kept);
    }

    [Fact]
    public void An_absent_member_expects_the_default_value()
    {
        var mismatches = Compare(new MyClass { MyInteger = 5 }, """{}""", typeof(MyClass));

        Assert.Equal(["MyInteger: expected null/absent, got 5"], mismatches.Kept);
    }

    [Fact]
    public void Mismatches_are_all_counted_but_only_the_first_few_kept()
    {
        var mismatches = new MismatchList(keep: 2);
        for (var i = 0; i < 5; i++) mismatches.Add($"[{i}]", "1", "0");

        Assert.Equal(5, mismatches.Count);
        Assert.Equal(2, mismatches.Kept.Count);
    }
    private enum Paint { Red, Green, Blue }

    [Theory]
    [InlineData("2", 0)]
    [InlineData("\"Blue\"", 0)]
    [InlineData("\"2\"", 1)]
    [InlineData("\"Red, Blue\"", 1)]
    [InlineData("\"blue\"", 1)]
    [InlineData("4294967298", 1)]
    [InlineData("7", 1)]
    public void An_enum_is_the_number_or_the_exact_name_of_one_of_its_values(string json, int expectedMismatches)
    {
        Assert.Equal(expectedMismatches, Compare(Paint.Blue, json, typeof(Paint)).Count);
    }

    [Theory]
    [InlineData("\"/Date(1709210096789)/\"", 0)]
    [InlineData("\"/Date(1709210096789+0200)/\"", 0)]
    [InlineData("\"/Date(17092100967890000)/\"", 1)]
    [InlineData("\"2024-02-29T12:34:56.789Z\"", 0)]
    public void A_date_is_iso_8601_or_milliseconds_since_the_epoch_in_the_Microsoft_form(string json, int expectedMismatches)
    {
        var instant = new DateTime(2024, 2, 29, 12, 34, 56, 789, DateTimeKind.Utc);

        Assert.Equal(expectedMismatches, Compare(instant, json, typeof(DateTime)).Count);
    }

    [Theory]
    [InlineData("18446744073709551615", 0)]
    [InlineData("18446744073709551616", 1)]
    [InlineData("-1", 1)]
    public void A_ulong_beyond_long_compares_and_one_beyond_its_range_does_not(string json, int expectedMismatches)
    {
        Assert.Equal(expectedMismatches, Compare(ulong.MaxValue, json, typeof(ulong)).Count);
    }
}

public class StructuralComparerDictionaryTests
{
    private static IReadOnlyList<string> Compare(Dictionary<string, string> actual, string json)
    {
        var mismatches = new MismatchList();
        StructuralComparer.Compare(actual, StructuralComparer.Parse(json), actual.GetType(), "areaNames", mismatches);
        return mismatches.Kept;
    }

    [Fact]
    public void A_dictionary_matches_a_json_object_key_by_key_in_any_order()
    {
        Assert.Empty(Compare(new() { ["1"] = "a", ["2"] = "b" }, """{"2":"b","1":"a"}"""));
    }

    [Fact]
    public void Keys_compare_exactly_and_a_missing_or_wrong_value_is_named_with_its_key()
    {
        var mismatches = Compare(new() { ["A"] = "a", ["2"] = "x" }, """{"a":"a","2":"b"}""");

        Assert.Equal(["areaNames[a]: expected \"a\", got absent", "areaNames[2]: expected \"b\", got \"x\""], mismatches);
    }

    [Fact]
    public void An_extra_key_shows_in_the_count()
    {
        Assert.Equal(["areaNames: expected 1 keys, got 2 keys"], Compare(new() { ["1"] = "a", ["2"] = "b" }, """{"1":"a"}"""));
    }

}
