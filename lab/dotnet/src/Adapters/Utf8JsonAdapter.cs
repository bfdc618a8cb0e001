using System.Text;
using JsonLab.Datasets;
using Utf8Json;

namespace JsonLab.Adapters;

/// <summary>
/// Utf8Json with its default resolver. It writes UTF-8 only: the string form decodes its output with
/// Encoding.UTF8 inside the measured call (write-up 004's string method did the same); reading a string
/// uses Utf8Json's own string overload.
/// </summary>
public sealed class Utf8JsonAdapter(string variant, string description, PayloadForm form) : AdapterBase(variant, description, form), IComposableAdapter
{
    public override string Library => "Utf8Json";
    public override string LibraryVersion => LibraryVersions.OfPackage("Utf8Json");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        return ByForm<Func<T?>>(() => JsonSerializer.Deserialize<T>(text), () => JsonSerializer.Deserialize<T>(utf8));
    }

    public Func<object, T?> DeserializeInput<T>() =>
        ByForm<Func<object, T?>>(i => JsonSerializer.Deserialize<T>((string)i), i => JsonSerializer.Deserialize<T>((byte[])i));

    public Func<T, object> SerializeValue<T>() =>
        ByForm<Func<T, object>>(v => Encoding.UTF8.GetString(JsonSerializer.Serialize(v)), v => JsonSerializer.Serialize(v));

    public override Func<object> BindSerialize<T>(T value) =>
        ByForm<Func<object>>(() => Encoding.UTF8.GetString(JsonSerializer.Serialize(value)), () => JsonSerializer.Serialize(value));
}
