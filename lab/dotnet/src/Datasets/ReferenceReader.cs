using System.Collections;
using System.Reflection;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonLab.Datasets;

/// <summary>
/// Reads a dataset into a model with one fixed reader, independent of the variant under test. Serialize cells serialize
/// this value, so a library that cannot read (Jil on .NET 9+) can still be measured writing, and every library writes
/// the same objects.
///
/// It walks a JsonDocument and sets the model's properties itself (through its widest constructor for a type without a
/// parameterless one, a positional record; member names matched case-insensitively, a
/// [JsonPropertyName] taking precedence; interfaces of collections become List&lt;T&gt;; scalars parsed by JsonElement,
/// i.e. as System.Text.Json parses them). It does not use System.Text.Json's serializer, so a cold process that
/// prepares a serialize call has not already built the serializer's metadata for the model: the first call a cold-start
/// cell times is the library's own.
/// </summary>
public static class ReferenceReader
{
    /// <summary>The dataset as an instance of <paramref name="type"/>.</summary>
    public static object Read(Payload payload, Type type)
    {
        using var document = JsonDocument.Parse(payload.Text);
        return Materialize(document.RootElement, type, "$")
               ?? throw new LabException($"dataset '{payload.Name}' is JSON null", "a dataset must hold a value of its model");
    }

    private static object? Materialize(JsonElement json, Type type, string path)
    {
        if (json.ValueKind == JsonValueKind.Null)
            return type.IsValueType && Nullable.GetUnderlyingType(type) is null
                ? throw new LabException($"{path} is null but {type.Name} cannot be", "fix the dataset or the model")
                : null;
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (Scalar(json, type) is { } scalar)
            return scalar;
        if (ValueTypeOf(type) is { } value)
            return Map(json, type, value, path);
        if (ElementTypeOf(type) is { } item)
            return Collection(json, type, item, path);
        if (type.IsClass && json.ValueKind == JsonValueKind.Object)
            return Populate(json, type, path);
        throw new LabException($"{path}: the reference reader cannot make a {type.Name} from a JSON {json.ValueKind}",
            "extend Datasets/ReferenceReader.cs for this type, or fix the dataset");
    }

    private static object? Scalar(JsonElement json, Type type) =>
        type == typeof(string) ? json.GetString()
        : type == typeof(bool) ? json.GetBoolean()
        : type == typeof(int) ? json.GetInt32()
        : type == typeof(long) ? json.GetInt64()
        : type == typeof(short) ? json.GetInt16()
        : type == typeof(byte) ? json.GetByte()
        : type == typeof(sbyte) ? json.GetSByte()
        : type == typeof(ushort) ? json.GetUInt16()
        : type == typeof(uint) ? json.GetUInt32()
        : type == typeof(ulong) ? json.GetUInt64()
        : type == typeof(char) ? OneChar(json.GetString())
        : type.IsEnum ? EnumValue(json, type)
        : type == typeof(double) ? json.GetDouble()
        : type == typeof(float) ? json.GetSingle()
        : type == typeof(decimal) ? json.GetDecimal()
        : type == typeof(DateTime) ? json.GetDateTime()
        : type == typeof(DateTimeOffset) ? json.GetDateTimeOffset()
        : type == typeof(Guid) ? json.GetGuid()
        : (object?)null;

    /// <summary>A char is a JSON string of one UTF-16 code unit (as every serializer here writes one).</summary>
    private static char OneChar(string? text) =>
        text is { Length: 1 } ? text[0] : throw new FormatException($"a char is a string of one character, not {JsonSerializer.Serialize(text)}");

    /// <summary>An enum is its number (most libraries' default) or its exact name.</summary>
    private static object EnumValue(JsonElement json, Type type) =>
        EnumOrNull(json, type) ?? throw new FormatException($"{json.GetRawText()} is not a value of {type.Name}");

    /// <summary>The enum value a JSON number or name stands for: a number of one of its values (no other number, none
    /// beyond its range), or a value's exact name (not "2", not "A, B", which Enum.Parse would take); else null.</summary>
    public static object? EnumOrNull(JsonElement json, Type type)
    {
        if (json.ValueKind == JsonValueKind.String)
            return Enum.GetNames(type).Contains(json.GetString(), StringComparer.Ordinal) ? Enum.Parse(type, json.GetString()!) : null;
        if (json.ValueKind != JsonValueKind.Number || !json.TryGetInt64(out var number))
            return null;
        try
        {
            var value = Enum.ToObject(type, Convert.ChangeType(number, Enum.GetUnderlyingType(type), System.Globalization.CultureInfo.InvariantCulture));
            return Enum.IsDefined(type, value) ? value : null;
        }
        catch (OverflowException)
        {
            return null;
        }
    }

    /// <summary>T[] for arrays, otherwise a List&lt;T&gt; (as System.Text.Json builds one for collection interfaces).</summary>
    private static object Collection(JsonElement json, Type type, Type item, string path)
    {
        if (json.ValueKind != JsonValueKind.Array)
            throw new LabException($"{path}: expected a JSON array for {type.Name}, found {json.ValueKind}", "fix the dataset or the model");
        var values = json.EnumerateArray().Select((element, i) => Materialize(element, item, $"{path}[{i}]")).ToList();
        if (type.IsArray)
        {
            var array = Array.CreateInstance(item, values.Count);
            for (var i = 0; i < values.Count; i++)
                array.SetValue(values[i], i);
            return array;
        }
        var list = (IList)Activator.CreateInstance(type.IsInterface ? typeof(List<>).MakeGenericType(item) : type)!;
        foreach (var value in values)
            list.Add(value);
        return list;
    }

    /// <summary>A JSON object keyed by its member names: the dictionary type itself, or a Dictionary&lt;string, V&gt; for an interface.</summary>
    private static object Map(JsonElement json, Type type, Type value, string path)
    {
        if (json.ValueKind != JsonValueKind.Object)
            throw new LabException($"{path}: expected a JSON object for {type.Name}, found {json.ValueKind}", "fix the dataset or the model");
        var dictionary = (IDictionary)Activator.CreateInstance(type.IsInterface ? typeof(Dictionary<,>).MakeGenericType(typeof(string), value) : type)!;
        foreach (var member in json.EnumerateObject())
            dictionary[member.Name] = Materialize(member.Value, value, $"{path}.{member.Name}");
        return dictionary;
    }

    private static object Populate(JsonElement json, Type type, string path)
    {
        var members = json.EnumerateObject().ToList();
        var names = members.Select(m => m.Name).ToList();
        var properties = type.GetProperties(BindingFlags.Public | BindingFlags.Instance).Where(p => p.GetIndexParameters().Length == 0).ToList();
        object? ValueOf(PropertyInfo property) =>
            JsonLab.Verification.MemberNames.Find(names, property.GetCustomAttribute<JsonPropertyNameAttribute>()?.Name ?? property.Name, last: true) is var at and >= 0
                ? Materialize(members[at].Value, property.PropertyType, $"{path}.{members[at].Name}")
                : Missing;
        // A type with no parameterless constructor (a positional record) is built through its widest public constructor,
        // each parameter given the member of the property it names, as System.Text.Json and Newtonsoft.Json bind it.
        var bound = new HashSet<PropertyInfo>();
        object instance;
        if (type.GetConstructor(Type.EmptyTypes) is null
            && type.GetConstructors().OrderByDescending(c => c.GetParameters().Length).FirstOrDefault() is { } constructor)
        {
            var arguments = constructor.GetParameters().Select(parameter =>
            {
                var property = properties.FirstOrDefault(p => string.Equals(p.Name, parameter.Name, StringComparison.OrdinalIgnoreCase))
                               ?? throw new LabException($"{path}: {type.Name}'s constructor parameter {parameter.Name} names no property", "the model's constructor parameters are its properties");
                bound.Add(property);
                return ValueOf(property) is var value && value != Missing ? value
                    : parameter.ParameterType.IsValueType ? Activator.CreateInstance(parameter.ParameterType) : null;
            }).ToArray();
            instance = constructor.Invoke(arguments);
        }
        else
        {
            instance = Activator.CreateInstance(type)
                       ?? throw new LabException($"{path}: cannot create a {type.Name}", "the model needs a public parameterless constructor, or one that takes its properties");
        }
        foreach (var property in properties.Where(p => p.CanWrite && !bound.Contains(p)))
            if (ValueOf(property) is var value && value != Missing)
                property.SetValue(instance, value);
        return instance;
    }

    /// <summary>A member the document does not hold (null is a value it may hold).</summary>
    private static readonly object Missing = new();

    /// <summary>V for a dictionary keyed by strings (IDictionary&lt;string, V&gt; or IReadOnlyDictionary&lt;string, V&gt;), else null.
    /// Checked before <see cref="ElementTypeOf"/>: a dictionary is also a sequence of its pairs.</summary>
    public static Type? ValueTypeOf(Type type)
    {
        static bool IsMap(Type t) => t.IsGenericType && (t.GetGenericTypeDefinition() == typeof(IDictionary<,>) || t.GetGenericTypeDefinition() == typeof(IReadOnlyDictionary<,>))
                                     && t.GetGenericArguments()[0] == typeof(string);
        var map = IsMap(type) ? type : type.GetInterfaces().FirstOrDefault(IsMap);
        return map?.GetGenericArguments()[1];
    }

    /// <summary>T for arrays and IEnumerable&lt;T&gt; (string excluded), else null.</summary>
    public static Type? ElementTypeOf(Type type)
    {
        if (type == typeof(string)) return null;
        if (type.IsArray) return type.GetElementType();
        var enumerable = type.IsGenericType && type.GetGenericTypeDefinition() == typeof(IEnumerable<>)
            ? type
            : type.GetInterfaces().FirstOrDefault(i => i.IsGenericType && i.GetGenericTypeDefinition() == typeof(IEnumerable<>));
        return enumerable?.GetGenericArguments()[0];
    }
}
