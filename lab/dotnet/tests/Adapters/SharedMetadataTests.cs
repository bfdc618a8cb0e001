using System.Text.Json;
using JsonLab.Adapters;

namespace JsonLab.Tests.Adapters;

public class SharedMetadataTests
{
    private sealed class Point
    {
        public int X { get; set; }
    }

    private static IReadOnlyList<ISerializerAdapter> Variants(params string[] names) => names.Select(VariantRegistry.Find).ToList();

    [Fact]
    public void Equivalent_options_share_their_type_metadata_while_one_is_alive()
    {
        // the premise of the check: System.Text.Json 7+ hands a new options object the metadata of an equivalent live one
        var kept = new JsonSerializerOptions { PropertyNameCaseInsensitive = true };
        JsonSerializer.Deserialize<Point>("{\"x\":1}", kept);
        var fresh = new JsonSerializerOptions { PropertyNameCaseInsensitive = true };
        JsonSerializer.Deserialize<Point>("{\"x\":1}", fresh);
        var other = new JsonSerializerOptions { PropertyNameCaseInsensitive = false };
        JsonSerializer.Deserialize<Point>("{\"X\":1}", other);

        Assert.Same(kept.GetTypeInfo(typeof(Point)), fresh.GetTypeInfo(typeof(Point)));
        Assert.NotSame(kept.GetTypeInfo(typeof(Point)), other.GetTypeInfo(typeof(Point)));
        GC.KeepAlive(kept);
    }

    [Fact]
    public void Options_per_call_beside_equivalent_reused_options_is_refused_naming_both()
    {
        var conflict = SharedMetadata.Conflict(Variants("newtonsoft-default", "stj-case-insensitive-options-per-call", "stj-case-insensitive"));

        Assert.NotNull(conflict);
        Assert.Contains("stj-case-insensitive-options-per-call", conflict);
        Assert.Contains("stj-case-insensitive keeps equivalent options alive", conflict);
    }

    [Fact]
    public void A_variant_made_per_call_by_its_settings_is_checked_too()
    {
        Assert.NotNull(SharedMetadata.Conflict(Variants("stj-camel-policy+options_per_call=true", "stj-camel-policy-utf8")));
        Assert.Null(SharedMetadata.Conflict(Variants("stj-camel-policy+options_per_call=true", "stj-case-insensitive")));
    }

    [Fact]
    public void Write_up_001s_file_group_and_an_A_A_copy_of_the_per_call_member_may_share_a_process()
    {
        // the default run's process of that group: nothing else keeps case-insensitive options alive
        Assert.Null(SharedMetadata.Conflict(Variants("newtonsoft-default", "stj-case-insensitive-options-per-call", "stj-default", "newtonsoft-default")));
        Assert.Null(SharedMetadata.Conflict(Variants("stj-case-insensitive-options-per-call", "stj-case-insensitive-options-per-call")));
    }

    [Fact]
    public void Options_alike_in_every_public_setting_are_equivalent_and_one_setting_apart_are_not()
    {
        Assert.True(SharedMetadata.Equivalent(new JsonSerializerOptions { PropertyNameCaseInsensitive = true }, new JsonSerializerOptions { PropertyNameCaseInsensitive = true }));
        Assert.False(SharedMetadata.Equivalent(new JsonSerializerOptions { PropertyNameCaseInsensitive = true },
            new JsonSerializerOptions { PropertyNameCaseInsensitive = true, WriteIndented = true }));
        Assert.False(SharedMetadata.Equivalent(new JsonSerializerOptions(), new JsonSerializerOptions { Converters = { new System.Text.Json.Serialization.JsonStringEnumConverter() } }));
    }
}
