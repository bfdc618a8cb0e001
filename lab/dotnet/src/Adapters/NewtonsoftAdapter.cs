using System.Text;
using JsonLab.Datasets;
using Newtonsoft.Json;

namespace JsonLab.Adapters;

/// <summary>
/// Newtonsoft.Json JsonConvert with one settings object (null: its defaults). Newtonsoft has no UTF-8 API: the
/// UTF-8 form converts with Encoding.UTF8 inside the measured call, as write-up 004's "bytes" methods did.
/// </summary>
public sealed class NewtonsoftAdapter(string variant, string description, PayloadForm form = PayloadForm.String,
    Func<JsonSerializerSettings>? settings = null) : AdapterBase(variant, description, form), ISettingsAdapter, IComposableAdapter
{
    private readonly Lazy<JsonSerializerSettings?> _settings = new(() => settings?.Invoke());

    public override string Library => "Newtonsoft.Json";
    public override string LibraryVersion => LibraryVersions.OfLoaded(typeof(JsonConvert), "Newtonsoft.Json");

    public IReadOnlyList<SettingSpec> Settings => NewtonsoftSettings.All;

    /// <summary>The same variant with the experiment's settings applied to its settings object (a new one where it had none).</summary>
    public ISerializerAdapter With(string variant, IReadOnlyList<KeyValuePair<string, string>> chosen) =>
        new NewtonsoftAdapter(variant, $"{Description}; settings: {VariantSettings.Describe(chosen)}", Form,
            () => NewtonsoftSettings.Apply(settings?.Invoke() ?? new JsonSerializerSettings(), chosen));

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8, s) = (payload.Text, payload.Utf8, _settings.Value);
        return ByForm<Func<T?>>(
            () => JsonConvert.DeserializeObject<T>(text, s),
            () => JsonConvert.DeserializeObject<T>(Encoding.UTF8.GetString(utf8), s));
    }

    public Func<object, T?> DeserializeInput<T>()
    {
        var s = _settings.Value;
        return ByForm<Func<object, T?>>(i => JsonConvert.DeserializeObject<T>((string)i, s), i => JsonConvert.DeserializeObject<T>(Encoding.UTF8.GetString((byte[])i), s));
    }

    public Func<T, object> SerializeValue<T>()
    {
        var s = _settings.Value;
        return ByForm<Func<T, object>>(v => JsonConvert.SerializeObject(v, s), v => Encoding.UTF8.GetBytes(JsonConvert.SerializeObject(v, s)));
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var s = _settings.Value;
        return ByForm<Func<object>>(
            () => JsonConvert.SerializeObject(value, s),
            () => Encoding.UTF8.GetBytes(JsonConvert.SerializeObject(value, s)));
    }
}
