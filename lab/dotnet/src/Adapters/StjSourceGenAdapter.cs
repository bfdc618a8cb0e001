#if !LEGACY_RUNTIME
using System.Text.Json;
using System.Text.Json.Serialization;
using System.Text.Json.Serialization.Metadata;
using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// System.Text.Json with compile-time (source-generated) metadata from a <see cref="JsonSerializerContext"/>.
/// Write-up 004 used one context entry, ICollection&lt;SimpleModel&gt;, for both directions, and serialized its
/// SimpleModel[] through the untyped Serialize(object, JsonTypeInfo) overload: a type the context does not list
/// is written with the metadata of the listed type it implements, as there. With settings chosen by an experiment,
/// the metadata comes from the same contexts through options built at run time (<paramref name="options"/>, whose
/// resolver is the contexts): the library serializes through its generated fast path while the options stay compatible
/// with the context's (JsonSerializerContext.IsCompatibleWithOptions: an encoder, an ignore condition or another
/// naming policy is not), and through the metadata otherwise.
/// </summary>
public sealed class StjSourceGenAdapter(
    string variant, string description, PayloadForm form, JsonSerializerContext context, JsonSerializerOptions? options = null)
    : AdapterBase(variant, description, form), IComposableAdapter, ISettingsAdapter
{
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

    /// <summary>The same contexts with the settings applied to a copy of this variant's options, handed over at run time.</summary>
    public ISerializerAdapter With(string variant, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        var chosen = new JsonSerializerOptions(options ?? context.Options)
        {
            TypeInfoResolver = JsonTypeInfoResolver.Combine([context, .. SourceGenContexts.Declared]),
        };
        return new StjSourceGenAdapter(variant, $"{Description}; settings: {VariantSettings.Describe(settings)}", Form, context,
            StjSettings.Apply(chosen, settings));
    }

    /// <summary>The variant's own context's metadata, else that of a declared model's context (same options); with
    /// settings, the same contexts' metadata for the chosen options.</summary>
    private JsonTypeInfo? InfoOf(Type type) => options is not null
        ? options.TryGetTypeInfo(type, out var info) ? info : null
        : context.GetTypeInfo(type) ?? SourceGenContexts.Declared.Select(c => c.GetTypeInfo(type)).FirstOrDefault(i => i is not null);

    private JsonTypeInfo ListedSupertypeOf(Type type) =>
        type.GetInterfaces().Select(ContextInfoOf).FirstOrDefault(info => info is not null) ?? throw Unlisted(type);

    private JsonTypeInfo? ContextInfoOf(Type type) => options is null ? context.GetTypeInfo(type) : context.GetTypeInfo(type) is null ? null : InfoOf(type);

    private LabException Unlisted(Type type) =>
        new($"{context.GetType().Name} has no source-generated metadata for {type}",
            $"add [JsonSerializable(typeof(...))] for it to {context.GetType().Name}");
}

/// <summary>Source-generated metadata for the models write-up 004 serialized, with its options (camelCase names).</summary>
[JsonSourceGenerationOptions(PropertyNamingPolicy = JsonKnownNamingPolicy.CamelCase, GenerationMode = JsonSourceGenerationMode.Default)]
[JsonSerializable(typeof(ICollection<SimpleModel>))]
public sealed partial class SimpleModelJsonContext : JsonSerializerContext;
#endif
