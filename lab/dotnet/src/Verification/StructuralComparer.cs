using System.Collections;
using System.Globalization;
using System.Reflection;
using System.Text.Json;

namespace JsonLab.Verification;

/// <summary>
/// Compares a deserialized CLR object with the JSON it should hold, field by field.
/// JSON members are matched to CLR properties by name, ignoring case and any serializer
/// attributes: this is the model's meaning, independent of every variant's binding rules.
/// </summary>
public static class StructuralComparer
{
    /// <summary>The expected value for <see cref="Compare"/>: the parsed JSON text, or null for a JSON null.</summary>
    public static JsonElement? Parse(string json)
    {
        using var document = JsonDocument.Parse(json);
        return Present(document.RootElement.Clone());
    }

    /// <summary>A JSON null is compared like an absent member: with the CLR default.</summary>
    private static JsonElement? Present(JsonElement element) => element.ValueKind == JsonValueKind.Null ? null : element;

    /// <summary>Appends one line per differing field ("path: expected X, got Y") to <paramref name="mismatches"/>.</summary>
    public static void Compare(object? actual, JsonElement? expected, Type type, string path, MismatchList mismatches)
    {
        if (Nullable.GetUnderlyingType(type) is { } underlying && expected is not null)
            type = underlying;
        if (expected is not { } json)
            CompareWithDefault(actual, type, path, mismatches);
        else if (type == typeof(string))
            CompareScalar(actual, json, path, mismatches, e => e.ValueKind == JsonValueKind.String ? e.GetString() : null);
        else if (type == typeof(bool))
            CompareScalar(actual, json, path, mismatches, e => e.ValueKind is JsonValueKind.True or JsonValueKind.False ? e.GetBoolean() : null);
        else if (IsInteger(type))
            CompareScalar(actual, json, path, mismatches, e => ReadInteger(e, type));
        else if (type == typeof(decimal))
            CompareScalar(actual, json, path, mismatches, e => e.ValueKind == JsonValueKind.Number && e.TryGetDecimal(out var d) ? d : null);
        else if (type == typeof(double) || type == typeof(float))
            CompareScalar(actual, json, path, mismatches, e => e.ValueKind == JsonValueKind.Number ? Convert.ChangeType(e.GetDouble(), type, CultureInfo.InvariantCulture) : null);
        else if (type == typeof(char))
            CompareScalar(actual, json, path, mismatches, e => e.ValueKind == JsonValueKind.String && e.GetString() is { Length: 1 } c ? c[0] : null);
        else if (type == typeof(Guid))
            CompareScalar(actual, json, path, mismatches, e => e.ValueKind == JsonValueKind.String && e.TryGetGuid(out var g) ? g : null);
        else if (type.IsEnum)
            CompareScalar(actual, json, path, mismatches, e => ReadEnum(e, type));
        else if (type == typeof(DateTime) || type == typeof(DateTimeOffset))
            CompareScalar(ToInstant(actual), json, path, mismatches, e => e.ValueKind == JsonValueKind.String ? ReadInstant(e.GetString()!) : null);
        else if (Datasets.ReferenceReader.ValueTypeOf(type) is { } valueType)
            CompareDictionary(actual, json, valueType, path, mismatches);
        else if (Datasets.ReferenceReader.ElementTypeOf(type) is { } elementType)
            CompareSequence(actual, json, elementType, path, mismatches);
        else if (type.IsClass)
            CompareObject(actual, json, type, path, mismatches);
        else
            throw new LabException($"the verifier cannot compare values of type {type} at {path}", "extend Verification/StructuralComparer.cs for this type");
    }

    private static void CompareWithDefault(object? actual, Type type, string path, MismatchList mismatches)
    {
        var expectedDefault = type.IsValueType ? Activator.CreateInstance(type) : null;
        if (!Equals(actual, expectedDefault))
            mismatches.Add(path, "null/absent", Describe(actual));
    }

    private static void CompareScalar(object? actual, JsonElement expected, string path, MismatchList mismatches, Func<JsonElement, object?> read)
    {
        var want = read(expected);
        if (want is null || !Equals(actual, want))
            mismatches.Add(path, expected.GetRawText(), Describe(actual));
    }

    private static void CompareSequence(object? actual, JsonElement expected, Type elementType, string path, MismatchList mismatches)
    {
        if (expected.ValueKind != JsonValueKind.Array)
        {
            mismatches.Add(path, expected.GetRawText(), Describe(actual));
            return;
        }
        var array = expected.EnumerateArray().ToList();
        if (actual is not IEnumerable items)
        {
            mismatches.Add(path, $"array of {array.Count}", Describe(actual));
            return;
        }
        var list = items.Cast<object?>().ToList();
        if (list.Count != array.Count)
            mismatches.Add(path, $"{array.Count} elements", $"{list.Count} elements");
        for (var i = 0; i < Math.Min(list.Count, array.Count); i++)
            Compare(list[i], Present(array[i]), elementType, $"{path}[{i}]", mismatches);
    }

    /// <summary>A dictionary against a JSON object: the same keys (exactly: keys are data, not member names), each value compared.</summary>
    private static void CompareDictionary(object? actual, JsonElement expected, Type valueType, string path, MismatchList mismatches)
    {
        if (expected.ValueKind != JsonValueKind.Object || actual is not IDictionary map)
        {
            mismatches.Add(path, expected.GetRawText(), Describe(actual));
            return;
        }
        var members = expected.EnumerateObject().ToList();
        if (map.Count != members.Count)
            mismatches.Add(path, $"{members.Count} keys", $"{map.Count} keys");
        foreach (var member in members)
        {
            if (!map.Contains(member.Name))
                mismatches.Add($"{path}[{member.Name}]", member.Value.GetRawText(), "absent");
            else
                Compare(map[member.Name], Present(member.Value), valueType, $"{path}[{member.Name}]", mismatches);
        }
    }

    private static void CompareObject(object? actual, JsonElement expected, Type type, string path, MismatchList mismatches)
    {
        if (expected.ValueKind != JsonValueKind.Object || actual is null)
        {
            mismatches.Add(path, expected.GetRawText(), Describe(actual));
            return;
        }
        var members = expected.EnumerateObject().ToList();
        var names = members.Select(m => m.Name).ToList();
        foreach (var property in type.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.CanRead))
        {
            var member = MemberNames.Find(names, property.Name);
            var childPath = path.Length == 0 ? property.Name : $"{path}.{property.Name}";
            Compare(property.GetValue(actual), member < 0 ? null : Present(members[member].Value), property.PropertyType, childPath, mismatches);
        }
    }

    /// <summary>
    /// Normalization rule for dates: both sides are compared as UTC instants to the tick. A JSON date is ISO 8601;
    /// one without an offset, and a DateTime of unspecified kind, are taken as UTC.
    /// </summary>
    private static object? ToInstant(object? value) => value switch
    {
        DateTime { Kind: DateTimeKind.Local } local => local.ToUniversalTime(),
        DateTime other => DateTime.SpecifyKind(other, DateTimeKind.Utc),
        DateTimeOffset offset => offset.UtcDateTime,
        _ => value,
    };

    private static object? ReadInstant(string text) =>
        DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var parsed) ? parsed.UtcDateTime
        : MicrosoftDate.Match(text) is { Success: true } date && long.TryParse(date.Groups[1].Value, NumberStyles.AllowLeadingSign, CultureInfo.InvariantCulture, out var ms)
          && ms is >= -62135596800000 and <= 253402300799999
            ? DateTimeOffset.FromUnixTimeMilliseconds(ms).UtcDateTime
            : null;

    /// <summary>
    /// Normalization rule for dates, second form: the Microsoft JSON date "/Date(ms)/" or "/Date(ms+hhmm)/" (Jil's and
    /// ServiceStack's default), milliseconds since the Unix epoch in UTC, the offset only a display hint.
    /// </summary>
    private static readonly System.Text.RegularExpressions.Regex MicrosoftDate = new(@"^/Date\((-?\d{1,15})(?:[+-]\d{4})?\)/$");

    /// <summary>A JSON integer as the CLR integer type, or null when it is not one or does not fit (ulong beyond long).</summary>
    private static object? ReadInteger(JsonElement e, Type type)
    {
        if (e.ValueKind != JsonValueKind.Number)
            return null;
        try
        {
            return e.TryGetInt64(out var signed) ? Convert.ChangeType(signed, type, CultureInfo.InvariantCulture)
                : e.TryGetUInt64(out var unsigned) ? Convert.ChangeType(unsigned, type, CultureInfo.InvariantCulture)
                : null;
        }
        catch (OverflowException)
        {
            return null;
        }
    }

    /// <summary>An enum's JSON is the number of one of its values, or that value's exact name (not "2", not "A, B").</summary>
    private static object? ReadEnum(JsonElement e, Type type) => Datasets.ReferenceReader.EnumOrNull(e, type);

    private static bool IsInteger(Type t) =>
        t == typeof(int) || t == typeof(long) || t == typeof(short) || t == typeof(byte)
        || t == typeof(uint) || t == typeof(ulong) || t == typeof(ushort) || t == typeof(sbyte);

    private static string Describe(object? value) => value switch
    {
        null => "null",
        string s => JsonSerializer.Serialize(s),
        bool b => b ? "true" : "false",
        DateTime d => d.ToString("O", CultureInfo.InvariantCulture),
        IFormattable f => f.ToString(null, CultureInfo.InvariantCulture),
        IEnumerable e => $"{e.Cast<object?>().Count()} elements",
        _ => value.GetType().Name,
    };
}
