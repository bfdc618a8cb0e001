using System.Text.Json;
#if !LEGACY_RUNTIME
using System.Text.Json.Nodes;
#endif
using Newtonsoft.Json.Linq;

namespace JsonLab.Adapters;

/// <summary>
/// Each document library's walk over every value of its tree, through its own API: strings read as strings, numbers as
/// doubles, members by name. A leaf is a scalar, null, or an empty object or array, as in the canonical form, so the
/// count can be checked against the dataset's. What the walk reads is folded into <see cref="Sink"/>, which keeps the
/// JIT from dropping any read.
/// </summary>
public static class ValueWalkers
{
    private static long _sink;

    /// <summary>The fold of the last walk's values (nothing reads it but the walk itself).</summary>
    public static long Sink => Volatile.Read(ref _sink);

    private static void Fold(long value) => Volatile.Write(ref _sink, _sink * 31 + value);

    public static long Walk(JsonElement element)
    {
        switch (element.ValueKind)
        {
            case JsonValueKind.Object:
            {
                long leaves = 0;
                foreach (var member in element.EnumerateObject())
                {
                    Fold(member.Name.Length);
                    leaves += Walk(member.Value);
                }
                return leaves == 0 ? 1 : leaves;
            }
            case JsonValueKind.Array:
            {
                long leaves = 0;
                foreach (var item in element.EnumerateArray())
                    leaves += Walk(item);
                return leaves == 0 ? 1 : leaves;
            }
            case JsonValueKind.String:
                Fold(element.GetString()!.Length);
                return 1;
            case JsonValueKind.Number:
                Fold(BitConverter.DoubleToInt64Bits(element.GetDouble()));
                return 1;
            default:
                Fold((int)element.ValueKind);
                return 1;
        }
    }

#if !LEGACY_RUNTIME
    public static long Walk(JsonNode? node)
    {
        switch (node)
        {
            case JsonObject obj:
            {
                long leaves = 0;
                foreach (var (name, value) in obj)
                {
                    Fold(name.Length);
                    leaves += Walk(value);
                }
                return leaves == 0 ? 1 : leaves;
            }
            case JsonArray array:
            {
                long leaves = 0;
                foreach (var item in array)
                    leaves += Walk(item);
                return leaves == 0 ? 1 : leaves;
            }
            case null:
                Fold(0);
                return 1;
            default:
                Fold(node.GetValueKind() switch
                {
                    JsonValueKind.String => node.GetValue<string>().Length,
                    JsonValueKind.Number => BitConverter.DoubleToInt64Bits(node.GetValue<double>()),
                    var kind => (int)kind,
                });
                return 1;
        }
    }
#endif

    public static long Walk(JToken token)
    {
        switch (token)
        {
            case JObject obj:
            {
                long leaves = 0;
                foreach (var property in obj.Properties())
                {
                    Fold(property.Name.Length);
                    leaves += Walk(property.Value);
                }
                return leaves == 0 ? 1 : leaves;
            }
            case JArray array:
            {
                long leaves = 0;
                foreach (var item in array)
                    leaves += Walk(item);
                return leaves == 0 ? 1 : leaves;
            }
            default:
                Fold(token.Type switch
                {
                    JTokenType.String => ((string)token!).Length,
                    JTokenType.Integer or JTokenType.Float => BitConverter.DoubleToInt64Bits((double)token),
                    var type => (int)type,
                });
                return 1;
        }
    }
}
