using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace JsonLab.Adapters;

/// <summary>
/// The System.Text.Json options an experiment may set on a reflection variant (docs/experiments.md "Settings"). Each
/// value maps to one option; a value this runtime's System.Text.Json lacks makes the cell fail with the reason.
/// </summary>
public static class StjSettings
{
    public static readonly IReadOnlyList<SettingSpec> All =
    [
        new("case_insensitive", VariantSettings.YesNo, "PropertyNameCaseInsensitive"),
        new("enums_as_strings", VariantSettings.YesNo, "a JsonStringEnumConverter in Converters"),
        new("escaping", ["default", "relaxed"], "Encoder: the default or JavaScriptEncoder.UnsafeRelaxedJsonEscaping"),
        new("ignore_nulls", VariantSettings.YesNo, "DefaultIgnoreCondition = WhenWritingNull (IgnoreNullValues on .NET Core 3.1)"),
        new("indented", VariantSettings.YesNo, "WriteIndented"),
        new("naming", ["as_declared", "camelCase", "snake_case_lower", "snake_case_upper", "kebab_case_lower", "kebab_case_upper"],
            "PropertyNamingPolicy (snake and kebab case from .NET 8)"),
        new("numbers", ["strict", "allow_reading_from_string"], "NumberHandling: Strict or AllowReadingFromString (.NET 5+)"),
        new("options_per_call", VariantSettings.YesNo, "a new options object built inside every measured call"),
    ];

    /// <summary>The settings a source-generated context lacks at run time: a converter found by reflection, per-call options.</summary>
    public static readonly IReadOnlyList<string> SourceGeneratedLacks = ["enums_as_strings", "options_per_call"];

    /// <summary>
    /// The settings a source-generated variant takes: options handed to its context at run time (serialization keeps
    /// the generated fast path while they stay compatible with the context's, the library's rule, and uses the
    /// metadata otherwise).
    /// </summary>
    public static readonly IReadOnlyList<SettingSpec> SourceGenerated = All.Where(s => !SourceGeneratedLacks.Contains(s.Name)).ToList();

    /// <summary>The options with the settings applied (options_per_call is the adapter's, not an option).</summary>
    public static JsonSerializerOptions Apply(JsonSerializerOptions options, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        foreach (var (key, value) in settings)
        {
            switch (key)
            {
                case "case_insensitive": options.PropertyNameCaseInsensitive = VariantSettings.Flag(value); break;
                case "enums_as_strings": if (VariantSettings.Flag(value)) options.Converters.Add(new JsonStringEnumConverter()); break;
                case "escaping": options.Encoder = value switch { "relaxed" => JavaScriptEncoder.UnsafeRelaxedJsonEscaping, "default" => null, _ => throw Unknown(key, value) }; break;
                case "indented": options.WriteIndented = VariantSettings.Flag(value); break;
                case "naming": options.PropertyNamingPolicy = Naming(value); break;
                case "ignore_nulls": IgnoreNulls(options, VariantSettings.Flag(value)); break;
                case "numbers": Numbers(options, value); break;
                case "options_per_call": break;  // the adapter's (StjAdapter.With), not an option
                default: throw new LabException($"setting '{key}' has no case in StjSettings.Apply", "give the setting its case beside its entry in StjSettings.All");
            }
        }
        return options;
    }

    private static JsonNamingPolicy? Naming(string value) => value switch
    {
        "camelCase" => JsonNamingPolicy.CamelCase,
        "as_declared" => null,
#if LEGACY_RUNTIME
        _ => throw new PlatformNotSupportedException($"naming={value} needs the snake and kebab case JsonNamingPolicy members, which arrived in .NET 8"),
#else
        "snake_case_lower" => JsonNamingPolicy.SnakeCaseLower,
        "snake_case_upper" => JsonNamingPolicy.SnakeCaseUpper,
        "kebab_case_lower" => JsonNamingPolicy.KebabCaseLower,
        "kebab_case_upper" => JsonNamingPolicy.KebabCaseUpper,
        _ => throw Unknown("naming", value),
#endif
    };

#if LEGACY_RUNTIME
    private static void IgnoreNulls(JsonSerializerOptions options, bool on) => options.IgnoreNullValues = on;

    private static void Numbers(JsonSerializerOptions options, string value)
    {
        if (value != "strict")
            throw new PlatformNotSupportedException($"numbers={value} needs JsonSerializerOptions.NumberHandling, which arrived in .NET 5");
    }
#else
    private static void IgnoreNulls(JsonSerializerOptions options, bool on) =>
        options.DefaultIgnoreCondition = on ? JsonIgnoreCondition.WhenWritingNull : JsonIgnoreCondition.Never;

    private static void Numbers(JsonSerializerOptions options, string value) => options.NumberHandling = value switch
    {
        "allow_reading_from_string" => JsonNumberHandling.AllowReadingFromString,
        "strict" => JsonNumberHandling.Strict,
        _ => throw Unknown("numbers", value),
    };
#endif

    private static LabException Unknown(string key, string value) =>
        new($"value '{value}' of setting '{key}' has no case in StjSettings", "give the value its case beside its entry in StjSettings.All");
}
