using System.Text;
using JsonLab.Datasets;
using NetJSON;

namespace JsonLab.Adapters;

/// <summary>
/// NetJSON with one settings object. NetJSON has no UTF-8 API: the UTF-8 form decodes with Encoding.UTF8
/// before reading, and writes into a StringWriter then encodes, as write-up 004 did.
/// </summary>
public sealed class NetJsonAdapter(string variant, string description, PayloadForm form, Func<NetJSONSettings> settings)
    : AdapterBase(variant, description, form), IComposableAdapter
{
    private readonly Lazy<NetJSONSettings> _settings = new(settings);

    public override string Library => "NetJSON";
    public override string LibraryVersion => LibraryVersions.OfPackage("NetJSON");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8, s) = (payload.Text, payload.Utf8, _settings.Value);
        return ByForm<Func<T?>>(() => NetJSON.NetJSON.Deserialize<T>(text, s), () => NetJSON.NetJSON.Deserialize<T>(Encoding.UTF8.GetString(utf8), s));
    }

    public Func<object, T?> DeserializeInput<T>()
    {
        var s = _settings.Value;
        return ByForm<Func<object, T?>>(i => NetJSON.NetJSON.Deserialize<T>((string)i, s), i => NetJSON.NetJSON.Deserialize<T>(Encoding.UTF8.GetString((byte[])i), s));
    }

    public Func<T, object> SerializeValue<T>()
    {
        var s = _settings.Value;
        return ByForm<Func<T, object>>(v => NetJSON.NetJSON.Serialize(v, s), v =>
        {
            using var writer = new StringWriter();
            NetJSON.NetJSON.Serialize(v, writer, s);
            return Encoding.UTF8.GetBytes(writer.ToString());
        });
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var s = _settings.Value;
        return ByForm<Func<object>>(() => NetJSON.NetJSON.Serialize(value, s), () =>
        {
            using var writer = new StringWriter();
            NetJSON.NetJSON.Serialize(value, writer, s);
            return Encoding.UTF8.GetBytes(writer.ToString());
        });
    }
}
