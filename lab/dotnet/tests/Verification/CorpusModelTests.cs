using JsonLab.Adapters;
using JsonLab.Models;
using JsonLab.Verification;

namespace JsonLab.Tests.Verification;

/// <summary>The corpus files (twitter, citm_catalog, canada) through their typed models, in every library that runs on
/// this runtime, and the NetJSON reading error the verifier found in them.</summary>
public class CorpusModelTests
{
    public static IEnumerable<object[]> Cells()
    {
        string[] variants =
        [
            "stj-default", "stj-default-utf8", "newtonsoft-default", "spanjson-default-utf8", "utf8json-default-utf8",
#if LAB_SERVICESTACK
            "servicestack-default",
#endif
        ];
        foreach (var dataset in new[] { "twitter", "citm_catalog", "canada" })
        {
            foreach (var variant in variants)
                foreach (var operation in new[] { "deserialize", "serialize" })
                    yield return [variant, dataset, operation];
            yield return ["jil-default", dataset, "serialize"]; // Jil 3.0.0-alpha2 cannot deserialize on .NET 9 and later
            yield return ["netjson-default", dataset, "serialize"];
        }
    }

    [Theory]
    [MemberData(nameof(Cells))]
    public void Every_library_reads_and_writes_the_corpus_through_its_model(string variant, string dataset, string operation)
    {
        var payload = TestPayloads.Dataset(dataset);

        var result = Verifier.Verify(VariantRegistry.Find(variant), payload, operation);

        Assert.True(result.Status == "passed", $"{variant} {operation} {dataset}: {result.Message}");
        Assert.True(result.PayloadBytes > 0);
    }

    private static string Catalogue(string topicIds) =>
        """{"areaNames":{},"audienceSubCategoryNames":{},"blockNames":{},"events":{"1":{"id":1,"name":"x","subTopicIds":[],"topicIds":"""
        + topicIds
        + """}},"performances":[],"seatCategoryNames":{},"subTopicNames":{},"subjectNames":{},"topicNames":{},"topicSubTopics":{},"venueNames":{}}""";

    [Theory]
    [InlineData("[56,78\n]")]
    [InlineData("[56,78\t]")]
    [InlineData("[56,78\r\n]")]
    public void NetJSON_drops_the_last_digit_of_an_arrays_last_integer_when_a_newline_or_tab_precedes_the_bracket(string topicIds)
    {
        var adapter = VariantRegistry.Find("netjson-default");

        var result = Verifier.Verify(adapter, TestPayloads.Of(nameof(CitmCatalog), Catalogue(topicIds)), "deserialize");

        Assert.Equal("failed", result.Status);
        Assert.Contains("events[1].topicIds[1]: expected 78, got 7", result.Message);
    }

    [Theory]
    [InlineData("[56,78]")]
    [InlineData("[56,78 ]")]
    [InlineData("[56,\n78]")]
    public void NetJSON_reads_the_same_array_without_whitespace_or_with_spaces_before_the_bracket(string topicIds)
    {
        var result = Verifier.Verify(VariantRegistry.Find("netjson-default"), TestPayloads.Of(nameof(CitmCatalog), Catalogue(topicIds)), "deserialize");

        Assert.True(result.Status == "passed", result.Message);
    }

    [Fact]
    public void NetJSON_reads_a_seventeen_digit_double_as_a_different_double()
    {
        const string json = """{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"name":"x"},"geometry":{"type":"Polygon","coordinates":[[[-65.613616999999977,43.5]]]}}]}""";

        var result = Verifier.Verify(VariantRegistry.Find("netjson-default"), TestPayloads.Of(nameof(CanadaCollection), json), "deserialize");

        Assert.Equal("failed", result.Status);
        Assert.Contains("features[0].geometry.coordinates[0][0][0]: expected -65.613616999999977, got -65.613617", result.Message);
        Assert.True(Verifier.Verify(VariantRegistry.Find("stj-default"), TestPayloads.Of(nameof(CanadaCollection), json), "deserialize").Status == "passed");
    }
}
