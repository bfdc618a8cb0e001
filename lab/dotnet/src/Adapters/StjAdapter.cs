using System.Text.Json;
using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// System.Text.Json (reflection metadata) with one set of options. Options are built once when the operation is
/// bound, unless <paramref name="optionsPerCall"/> asks for a new instance inside every call
/// (as write-up 001's repository did).
/// </summary>
public sealed class StjAdapter(
    string variant,
    string description,
    PayloadForm form,
    Func<JsonSerializerOptions?> options,
    ModelBinding binding = ModelBinding.Plain,
    bool optionsPerCall = false) : AdapterBase(variant, description, form, binding), ISettingsAdapter, IComposableAdapter
{
    private readonly Lazy<JsonSerializerOptions?> _shared = new(options);

    public override string Library => "System.Text.Json";
    public override string LibraryVersion => LibraryVersions.Of(typeof(JsonSerializer).Assembly);

    /// <summary>True when the options object is created inside the measured call.</summary>
    public bool OptionsPerCall => optionsPerCall;

    /// <summary>A new instance of this variant's options, as its factory builds them (null: the serializer's defaults), to
    /// compare two variants' options without touching the instance a bound operation uses.</summary>
    public JsonSerializerOptions? NewOptions() => options();

    public IReadOnlyList<SettingSpec> Settings => StjSettings.All;

    /// <summary>
    /// The same variant with the experiment's settings applied to a new options object each time this variant would
    /// build one (the base's factory returns a new instance, so the base variant's options stay as they were).
    /// </summary>
    public ISerializerAdapter With(string variant, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        var perCall = settings.Where(s => s.Key == "options_per_call").Select(s => VariantSettings.Flag(s.Value)).DefaultIfEmpty(optionsPerCall).First();
        return new StjAdapter(variant, $"{Description}; settings: {VariantSettings.Describe(settings)}", Form,
            () => StjSettings.Apply(options() ?? new JsonSerializerOptions(), settings), Binding, perCall);
    }

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        if (optionsPerCall)
            return ByForm<Func<T?>>(() => JsonSerializer.Deserialize<T>(text, options()), () => JsonSerializer.Deserialize<T>(utf8, options()));
        var shared = _shared.Value;
        return ByForm<Func<T?>>(() => JsonSerializer.Deserialize<T>(text, shared), () => JsonSerializer.Deserialize<T>(utf8, shared));
    }

    public Func<object, T?> DeserializeInput<T>()
    {
        if (optionsPerCall)
            return ByForm<Func<object, T?>>(i => JsonSerializer.Deserialize<T>((string)i, options()), i => JsonSerializer.Deserialize<T>((byte[])i, options()));
        var shared = _shared.Value;
        return ByForm<Func<object, T?>>(i => JsonSerializer.Deserialize<T>((string)i, shared), i => JsonSerializer.Deserialize<T>((byte[])i, shared));
    }

    public Func<T, object> SerializeValue<T>()
    {
        if (optionsPerCall)
            return ByForm<Func<T, object>>(v => JsonSerializer.Serialize(v, options()), v => JsonSerializer.SerializeToUtf8Bytes(v, options()));
        var shared = _shared.Value;
        return ByForm<Func<T, object>>(v => JsonSerializer.Serialize(v, shared), v => JsonSerializer.SerializeToUtf8Bytes(v, shared));
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        if (optionsPerCall)
            return ByForm<Func<object>>(() => JsonSerializer.Serialize(value, options()), () => JsonSerializer.SerializeToUtf8Bytes(value, options()));
        var shared = _shared.Value;
        return ByForm<Func<object>>(() => JsonSerializer.Serialize(value, shared), () => JsonSerializer.SerializeToUtf8Bytes(value, shared));
    }
}
