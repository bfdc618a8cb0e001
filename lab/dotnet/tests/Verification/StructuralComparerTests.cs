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
