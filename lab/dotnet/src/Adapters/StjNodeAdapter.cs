#if !LEGACY_RUNTIME
using System.Text.Json;
using System.Text.Json.Nodes;
using JsonLab.Datasets;
using JsonLab.Models;
using JsonLab.Verification;

namespace JsonLab.Adapters;

/// <summary>
/// System.Text.Json's mutable JsonNode tree (JsonNode.Parse, ToJsonString). JsonNode.Parse validates and indexes the
/// whole text as JsonDocument does, but builds a JsonObject's or JsonArray's children only when they are first read: the
/// timed parse does not include making the node objects (the canonical check reads, and so builds, all of them).
/// </summary>
public sealed class StjNodeAdapter(string variant, string description, PayloadForm form)
    : AdapterBase(variant, description, form, ModelBinding.Document), IDocumentAdapter, IValueReadingAdapter
{
    public override string Library => "System.Text.Json";
    public override string LibraryVersion => LibraryVersions.Of(typeof(JsonNode).Assembly);
    public Type TreeType => typeof(JsonNode);

    public object ParseTree(Payload payload) =>
        (Form == PayloadForm.String ? JsonNode.Parse(payload.Text) : JsonNode.Parse(payload.Utf8))
        ?? throw new InvalidOperationException($"dataset '{payload.Name}' is the JSON null, which has no JsonNode");

    public CanonicalDigest Digest(object tree) => CanonicalForm.Of(tree, JsonNodeView.Instance);

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        Func<JsonNode?> parse = ByForm<Func<JsonNode?>>(() => JsonNode.Parse(text), () => JsonNode.Parse(utf8));
        return (Func<T?>)(object)parse;
    }

    public Func<long> BindParseThenRead(Payload payload)
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        return ByForm<Func<long>>(() => ValueWalkers.Walk(JsonNode.Parse(text)), () => ValueWalkers.Walk(JsonNode.Parse(utf8)));
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var node = (JsonNode)(object)value!;
        return ByForm<Func<object>>(() => node.ToJsonString(), () => JsonSerializer.SerializeToUtf8Bytes(node));
    }
}

/// <summary>JsonNode trees for the canonical form (a JSON null inside a tree is a null reference).</summary>
public sealed class JsonNodeView : ITreeView
{
    public static readonly JsonNodeView Instance = new();

    public JsonValueKind Kind(object? node) => node switch
    {
        null => JsonValueKind.Null,
        JsonObject => JsonValueKind.Object,
        JsonArray => JsonValueKind.Array,
        JsonNode value => value.GetValueKind(),
        _ => throw new InvalidCastException($"not a JsonNode: {node.GetType().Name}"),
    };

    public IEnumerable<KeyValuePair<string, object?>> Members(object node) => ((JsonObject)node).Select(m => new KeyValuePair<string, object?>(m.Key, m.Value));
    public IEnumerable<object?> Items(object node) => ((JsonArray)node).Select(n => (object?)n);
    public string String(object node) => ((JsonNode)node).GetValue<string>();
    public double Number(object node) => ((JsonNode)node).GetValue<double>();
}
#endif
