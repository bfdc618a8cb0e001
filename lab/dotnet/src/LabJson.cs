using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonLab;

/// <summary>How the lab writes its own JSON outputs: snake_case keys, indented, enums as names.</summary>
public static class LabJson
{
    public static readonly JsonSerializerOptions Options = new()
    {
        PropertyNamingPolicy = SnakeCase,
        WriteIndented = true,
        // Readable quotes and non-ASCII in messages; these files are never embedded in HTML.
        Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping,
        Converters = { new JsonStringEnumConverter(SnakeCase) },
#if !LEGACY_RUNTIME
        // The lab's own files use reflection metadata even in the Native AOT build, where the default is off: only the
        // serializer variants under test keep that default (reflection-based STJ variants fail there, as for a user).
        TypeInfoResolver = new System.Text.Json.Serialization.Metadata.DefaultJsonTypeInfoResolver(),
#endif
    };

#if LEGACY_RUNTIME
    private static JsonNamingPolicy SnakeCase => new Compat.SnakeCaseLowerPolicy();
#else
    private static JsonNamingPolicy SnakeCase => JsonNamingPolicy.SnakeCaseLower;
#endif

    /// <summary>An enum value's name as the lab's files write it (snake_case).</summary>
    public static string Name(Enum value) => SnakeCase.ConvertName(value.ToString());

    /// <summary>Serializes a lab output object.</summary>
    public static string Write(object value) => JsonSerializer.Serialize(value, value.GetType(), Options);

    /// <summary>Writes a lab output object to a file.</summary>
    public static void WriteFile(string path, object value) => File.WriteAllText(path, Write(value) + "\n");
}
