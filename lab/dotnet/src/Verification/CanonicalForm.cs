using System.Text;
using System.Text.Json;
using JsonLab.Datasets;

namespace JsonLab.Verification;

/// <summary>
/// How to read one library's document tree (JsonElement, JsonNode, JToken) for the canonical form; a JSON null may be
/// a null reference.
/// </summary>
public interface ITreeView
{
    JsonValueKind Kind(object? node);
    IEnumerable<KeyValuePair<string, object?>> Members(object node);
    IEnumerable<object?> Items(object node);
    string String(object node);
    double Number(object node);
}

/// <summary>
/// The canonical form of a parsed document, the same in every lab (jsonlab-canonical-v1; harness/model/canonical.py defines it
/// and computes each dataset's digest into datasets/manifest.json; lab/reference-node/src/canonical.js is the Node
/// twin): leaf records in document order, object members sorted by the UTF-8 bytes of their names, each record
/// <c>&lt;pointer byte length&gt;:&lt;RFC 6901 pointer&gt; &lt;kind&gt; &lt;value byte length&gt;:&lt;value&gt;\n</c>; a
/// number is the 16 hex digits of its IEEE-754 double (big-endian, -0 as +0); a lone surrogate counts as U+FFFD (what
/// Encoding.UTF8 writes for it).
/// </summary>
public static class CanonicalForm
{
    public const string Rule = "jsonlab-canonical-v1";

    /// <summary>The digest (sha256 of every record, and the record count) of a tree read through <paramref name="view"/>.</summary>
    public static CanonicalDigest Of(object? root, ITreeView view)
    {
        using var records = new MemoryStream();
        var leaves = Write(root, view, "", records);
        var hash = Payload.Sha256(records.ToArray());
        return new CanonicalDigest(Rule, string.Concat(hash.Select(b => b.ToString("x2"))), leaves);
    }

    /// <summary>The digest of JSON text as System.Text.Json's JsonDocument reads it (a written document is checked this way).</summary>
    public static CanonicalDigest OfText(string json)
    {
        using var document = JsonDocument.Parse(json);
        return Of(document.RootElement, JsonElementView.Instance);
    }

    private static long Write(object? node, ITreeView view, string pointer, Stream output)
    {
        switch (view.Kind(node))
        {
            case JsonValueKind.Null:
                return Record(output, pointer, "null", "");
            case JsonValueKind.True:
                return Record(output, pointer, "true", "");
            case JsonValueKind.False:
                return Record(output, pointer, "false", "");
            case JsonValueKind.Number:
                var value = view.Number(node!);
                return Record(output, pointer, "number", BitConverter.DoubleToInt64Bits(value == 0 ? 0.0 : value).ToString("x16"));
            case JsonValueKind.String:
                return Record(output, pointer, "string", view.String(node!));
            case JsonValueKind.Array:
            {
                long count = 0, index = 0;
                foreach (var item in view.Items(node!))
                    count += Write(item, view, $"{pointer}/{index++}", output);
                return index == 0 ? Record(output, pointer, "[]", "") : count;
            }
            case JsonValueKind.Object:
            {
                var members = view.Members(node!).Select(m => (Name: m.Key, Key: Encoding.UTF8.GetBytes(m.Key), m.Value)).ToList();
                if (members.Count == 0)
                    return Record(output, pointer, "{}", "");
                members.Sort((a, b) => a.Key.AsSpan().SequenceCompareTo(b.Key));
                long count = 0;
                foreach (var member in members)
                    count += Write(member.Value, view, $"{pointer}/{member.Name.Replace("~", "~0").Replace("/", "~1")}", output);
                return count;
            }
            default:
                throw new InvalidOperationException($"not a JSON value at '{pointer}': {view.Kind(node)}");
        }
    }

    private static long Record(Stream output, string pointer, string kind, string value)
    {
        var name = Encoding.UTF8.GetBytes(pointer);
        var text = Encoding.UTF8.GetBytes(value);
        var head = Encoding.ASCII.GetBytes($"{name.Length}:");
        output.Write(head, 0, head.Length);
        output.Write(name, 0, name.Length);
        var middle = Encoding.ASCII.GetBytes($" {kind} {text.Length}:");
        output.Write(middle, 0, middle.Length);
        output.Write(text, 0, text.Length);
        output.WriteByte((byte)'\n');
        return 1;
    }
}

/// <summary>System.Text.Json's JsonElement (JsonDocument's tree).</summary>
public sealed class JsonElementView : ITreeView
{
    public static readonly JsonElementView Instance = new();

    private static JsonElement E(object? node) => node is JsonElement e ? e : throw new InvalidCastException($"not a JsonElement: {node?.GetType().Name ?? "null"}");

    public JsonValueKind Kind(object? node) => E(node).ValueKind;
    public IEnumerable<KeyValuePair<string, object?>> Members(object node) => E(node).EnumerateObject().Select(p => new KeyValuePair<string, object?>(p.Name, p.Value));
    public IEnumerable<object?> Items(object node) => E(node).EnumerateArray().Select(e => (object?)e);
    public string String(object node) => E(node).GetString()!;
    public double Number(object node) => E(node).GetDouble();
}
