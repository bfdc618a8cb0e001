#if !LEGACY_RUNTIME
using JsonLab.Datasets;
using SpanJson;

namespace JsonLab.Adapters;

/// <summary>SpanJson with its default resolver: JsonSerializer.Generic.Utf16 for strings, .Utf8 for UTF-8 bytes.</summary>
public sealed class SpanJsonAdapter(string variant, string description, PayloadForm form) : AdapterBase(variant, description, form), IComposableAdapter
{
    public override string Library => "SpanJson";
    public override string LibraryVersion => LibraryVersions.OfPackage("SpanJson");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        return ByForm<Func<T?>>(() => JsonSerializer.Generic.Utf16.Deserialize<T>(text), () => JsonSerializer.Generic.Utf8.Deserialize<T>(utf8));
    }

    public Func<object, T?> DeserializeInput<T>() =>
        ByForm<Func<object, T?>>(i => JsonSerializer.Generic.Utf16.Deserialize<T>((string)i), i => JsonSerializer.Generic.Utf8.Deserialize<T>((byte[])i));

    public Func<T, object> SerializeValue<T>() =>
        ByForm<Func<T, object>>(v => JsonSerializer.Generic.Utf16.Serialize(v), v => JsonSerializer.Generic.Utf8.Serialize(v));

    public override Func<object> BindSerialize<T>(T value) =>
        ByForm<Func<object>>(() => JsonSerializer.Generic.Utf16.Serialize(value), () => JsonSerializer.Generic.Utf8.Serialize(value));
}
#endif
