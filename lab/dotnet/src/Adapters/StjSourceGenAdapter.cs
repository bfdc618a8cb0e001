#if !LEGACY_RUNTIME
using System.Collections.Concurrent;
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// System.Text.Json with compile-time (source-generated) metadata from <see cref="JsonSerializerContext"/>s, searched in
/// order for the first that lists a type: stj-sourcegen-camel reads write-up 004's own context, then the camelCase
/// contexts of the declared models; stj-sourcegen reads the declared models' contexts with their model file's own
/// options ([sourcegen]). Write-up 004 used one context entry, ICollection&lt;SimpleModel&gt;, for both directions, and
/// serialized its SimpleModel[] through the untyped Serialize(object, JsonTypeInfo) overload: a type no context lists
/// is written with the metadata of a listed type it implements, as there. With settings chosen by an experiment, the
/// metadata comes from the same context through options built at run time from a copy of its own
/// (<paramref name="settings"/>): the library serializes through its generated fast path while the options stay
/// compatible with the context's (JsonSerializerContext.IsCompatibleWithOptions: an encoder, an ignore condition or
/// another naming policy is not), and through the metadata otherwise.
/// </summary>
public sealed class StjSourceGenAdapter(
    string variant, string description, PayloadForm form, IReadOnlyList<JsonSerializerContext> contexts,
    IReadOnlyList<KeyValuePair<string, string>>? settings = null)
    : AdapterBase(variant, description, form), IComposableAdapter, ISettingsAdapter, INamingAdapter
{
    private readonly ConcurrentDictionary<JsonSerializerContext, JsonSerializerOptions> _chosen = new();

    public override string Library => "System.Text.Json (source generated)";
    public override string LibraryVersion => LibraryVersions.Of(typeof(JsonSerializer).Assembly);

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var info = (JsonTypeInfo<T>)(InfoOf(typeof(T)) ?? throw Unlisted(typeof(T)));
        var (text, utf8) = (payload.Text, payload.Utf8);
        return ByForm<Func<T?>>(() => JsonSerializer.Deserialize(text, info), () => JsonSerializer.Deserialize(utf8, info));
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var info = InfoOf(typeof(T)) ?? ListedSupertypeOf(typeof(T));
        object? boxed = value;
        return ByForm<Func<object>>(() => JsonSerializer.Serialize(boxed, info), () => JsonSerializer.SerializeToUtf8Bytes(boxed, info));
    }

    public Func<object, T?> DeserializeInput<T>()
    {
        var info = (JsonTypeInfo<T>)(InfoOf(typeof(T)) ?? throw Unlisted(typeof(T)));
        return ByForm<Func<object, T?>>(i => JsonSerializer.Deserialize((string)i, info), i => JsonSerializer.Deserialize((byte[])i, info));
    }

    public Func<T, object> SerializeValue<T>()
    {
        var info = InfoOf(typeof(T)) ?? ListedSupertypeOf(typeof(T));
        return ByForm<Func<T, object>>(v => JsonSerializer.Serialize(v, info), v => JsonSerializer.SerializeToUtf8Bytes(v, info));
    }

    public IReadOnlyList<SettingSpec> Settings => StjSettings.SourceGenerated;

    /// <summary>The same contexts, each with the settings applied to a copy of its own options, handed over at run time.</summary>
    public ISerializerAdapter With(string variant, IReadOnlyList<KeyValuePair<string, string>> chosen) =>
        new StjSourceGenAdapter(variant, $"{Description}; settings: {VariantSettings.Describe(chosen)}", Form, contexts, chosen);

    /// <summary>Whether the options <paramref name="model"/> is written with name its members in snake or kebab case.</summary>
    public bool WritesSeparatedNames(Type model) =>
        ContextOf(model) is { } context && OptionsOf(context).PropertyNamingPolicy?.ConvertName("AbCd") is { } name
        && (name.Contains('_') || name.Contains('-'));

    /// <summary>The metadata of the first context that lists the type (with settings: for the options built from it).</summary>
    private JsonTypeInfo? InfoOf(Type type) => ContextOf(type) is not { } context
        ? null
        : settings is null ? context.GetTypeInfo(type) : OptionsOf(context).GetTypeInfo(type);

    private JsonSerializerContext? ContextOf(Type type) => contexts.FirstOrDefault(c => c.GetTypeInfo(type) is not null);

    private JsonSerializerOptions OptionsOf(JsonSerializerContext context) => settings is null
        ? context.Options
        : _chosen.GetOrAdd(context, c => StjSettings.Apply(new JsonSerializerOptions(c.Options) { TypeInfoResolver = c }, settings));

    private JsonTypeInfo ListedSupertypeOf(Type type) =>
        type.GetInterfaces().Select(InfoOf).FirstOrDefault(info => info is not null) ?? throw Unlisted(type);

    private LabException Unlisted(Type type) => contexts.Count == 0
        ? new($"{Variant} has no source-generation context for {type}: it reads the contexts of models declared as data",
              "declare the model as data (datasets/models/<space>.toml, its [sourcegen] options) for this variant")
        : new($"{string.Join(", ", contexts.Select(c => c.GetType().Name))} list no source-generated metadata for {type}",
              $"add [JsonSerializable(typeof(...))] for it to {contexts[0].GetType().Name}, or declare the model as data");
}

/// <summary>Source-generated metadata for the models write-up 004 serialized, with its options (camelCase names).</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, GenerationMode = JsonSourceGenerationMode.Default)]
[JsonSerializable(typeof(ICollection<SimpleModel>))]
public sealed partial class SimpleModelJsonContext : JsonSerializerContext;
#endif
