using System.Text;
using JsonLab.Datasets;
using JsonLab.Models;
using JsonLab.Verification;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;

namespace JsonLab.Adapters;

/// <summary>
/// Newtonsoft.Json's JToken tree (JToken.Load over a JsonTextReader). Dates stay strings (DateParseHandling.None):
/// JToken.Parse's default turns ISO-looking strings into DateTime values and writes them back in another form, which the
/// canonical check would rightly fail. Newtonsoft has no UTF-8 reader or writer: the UTF-8 form converts with
/// Encoding.UTF8 inside the timed call.
/// </summary>
public sealed class NewtonsoftTokenAdapter(string variant, string description, PayloadForm form)
    : AdapterBase(variant, description, form, ModelBinding.Document), IDocumentAdapter, IValueReadingAdapter
{
    public override string Library => "Newtonsoft.Json";
    public override string LibraryVersion => LibraryVersions.OfLoaded(typeof(Newtonsoft.Json.JsonConvert), "Newtonsoft.Json");
    public Type TreeType => typeof(JToken);

    private static JToken Parse(string text)
    {
        using var reader = new JsonTextReader(new StringReader(text)) { DateParseHandling = DateParseHandling.None };
        return JToken.Load(reader);
    }

    public object ParseTree(Payload payload) => Parse(Form == PayloadForm.String ? payload.Text : Encoding.UTF8.GetString(payload.Utf8));

    public CanonicalDigest Digest(object tree) => CanonicalForm.Of(tree, JTokenView.Instance);

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        Func<JToken> parse = ByForm<Func<JToken>>(() => Parse(text), () => Parse(Encoding.UTF8.GetString(utf8)));
        return (Func<T?>)(object)parse;
    }

    public Func<long> BindParseThenRead(Payload payload)
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        return ByForm<Func<long>>(() => ValueWalkers.Walk(Parse(text)), () => ValueWalkers.Walk(Parse(Encoding.UTF8.GetString(utf8))));
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        var token = (JToken)(object)value!;
        return ByForm<Func<object>>(() => token.ToString(Formatting.None), () => Encoding.UTF8.GetBytes(token.ToString(Formatting.None)));
    }
}

/// <summary>Newtonsoft's JToken tree for the canonical form: integers (long or BigInteger) and floats compare as doubles.</summary>
public sealed class JTokenView : ITreeView
{
    public static readonly JTokenView Instance = new();

    private static JToken T(object? node) => node as JToken ?? JValue.CreateNull();

    public System.Text.Json.JsonValueKind Kind(object? node) => T(node).Type switch
    {
        JTokenType.Object => System.Text.Json.JsonValueKind.Object,
        JTokenType.Array => System.Text.Json.JsonValueKind.Array,
        JTokenType.String => System.Text.Json.JsonValueKind.String,
        JTokenType.Integer or JTokenType.Float => System.Text.Json.JsonValueKind.Number,
        JTokenType.Boolean => (bool)T(node) ? System.Text.Json.JsonValueKind.True : System.Text.Json.JsonValueKind.False,
        JTokenType.Null => System.Text.Json.JsonValueKind.Null,
        var other => throw new InvalidOperationException($"a JToken of type {other} is not plain JSON"),
    };

    public IEnumerable<KeyValuePair<string, object?>> Members(object node) =>
        ((JObject)node).Properties().Select(p => new KeyValuePair<string, object?>(p.Name, p.Value));

    public IEnumerable<object?> Items(object node) => ((JArray)node).Select(t => (object?)t);
    public string String(object node) => (string)((JValue)node).Value!;

    public double Number(object node) => ((JValue)node).Value switch
    {
        System.Numerics.BigInteger big => (double)big,
        var v => Convert.ToDouble(v, System.Globalization.CultureInfo.InvariantCulture),
    };
}
