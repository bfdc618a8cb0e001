using System.Text;
using Jil;
using JsonLab.Datasets;

namespace JsonLab.Adapters;

/// <summary>
/// Jil with write-up 004's options (ISO 8601 dates, camelCase names). Jil reads and writes .NET strings only:
/// the UTF-8 form decodes with Encoding.UTF8 before reading, and writes into a StringWriter then encodes.
/// </summary>
public sealed class JilAdapter(string variant, string description, PayloadForm form, Func<Options> options)
    : AdapterBase(variant, description, form), IComposableAdapter
{
    private readonly Lazy<Options> _options = new(options);

    public override string Library => "Jil";
    public override string LibraryVersion => LibraryVersions.OfPackage("Jil");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8, o) = (payload.Text, payload.Utf8, _options.Value);
        return ByForm<Func<T?>>(() => JSON.Deserialize<T>(text, o), () => JSON.Deserialize<T>(Encoding.UTF8.GetString(utf8), o));
    }

    public Func<object, T?> DeserializeInput<T>()
    {
        var o = _options.Value;
        return ByForm<Func<object, T?>>(i => JSON.Deserialize<T>((string)i, o), i => JSON.Deserialize<T>(Encoding.UTF8.GetString((byte[])i), o));
    }

    public Func<T, object> SerializeValue<T>()
    {
        var o = _options.Value;
        return ByForm<Func<T, object>>(v => JSON.Serialize(v, o), v =>
        {
            using var writer = new StringWriter();
            JSON.Serialize(v, writer, o);
            return Encoding.UTF8.GetBytes(writer.ToString());
        });
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var o = _options.Value;
        return ByForm<Func<object>>(() => JSON.Serialize(value, o), () =>
        {
            using var writer = new StringWriter();
            JSON.Serialize(value, writer, o);
            return Encoding.UTF8.GetBytes(writer.ToString());
        });
    }
}
