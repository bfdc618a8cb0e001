using System.Buffers;
using System.Text;
using System.Text.Json;
using JsonLab.Datasets;
using JsonLab.Models;
using JsonLab.Verification;

namespace JsonLab.Adapters;

/// <summary>
/// System.Text.Json's JsonDocument: the read-only tree over the UTF-8 text. The timed parse disposes the document, as a
/// `using` does, so its pooled buffers go back to the pool; writing is JsonElement.WriteTo a Utf8JsonWriter (to a string:
/// then decoded with Encoding.UTF8, which is what JsonSerializer.Serialize does for a string).
/// </summary>
public sealed class StjDocumentAdapter(string variant, string description, PayloadForm form)
    : AdapterBase(variant, description, form, ModelBinding.Document), IDocumentAdapter, IValueReadingAdapter
{
    public override string Library => "System.Text.Json";
    public override string LibraryVersion => LibraryVersions.Of(typeof(JsonDocument).Assembly);
    public Type TreeType => typeof(JsonDocument);

    public object ParseTree(Payload payload) => Form == PayloadForm.String ? JsonDocument.Parse(payload.Text) : JsonDocument.Parse(payload.Utf8);

    public CanonicalDigest Digest(object tree) => CanonicalForm.Of(((JsonDocument)tree).RootElement, JsonElementView.Instance);

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        Func<JsonDocument> parse = ByForm<Func<JsonDocument>>(
            () => { var d = JsonDocument.Parse(text); d.Dispose(); return d; },
            () => { var d = JsonDocument.Parse(utf8); d.Dispose(); return d; });
        return (Func<T?>)(object)parse;
    }

    public Func<long> BindParseThenRead(Payload payload)
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        return ByForm<Func<long>>(
            () => { using var d = JsonDocument.Parse(text); return ValueWalkers.Walk(d.RootElement); },
            () => { using var d = JsonDocument.Parse(utf8); return ValueWalkers.Walk(d.RootElement); });
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var root = ((JsonDocument)(object)value!).RootElement;
        return ByForm<Func<object>>(() => Encoding.UTF8.GetString(Write(root)), () => Write(root));
    }

    private static byte[] Write(JsonElement root)
    {
        var buffer = new ArrayBufferWriter<byte>();
        using (var writer = new Utf8JsonWriter(buffer))
            root.WriteTo(writer);
        return buffer.WrittenSpan.ToArray();
    }
}
