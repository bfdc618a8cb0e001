using Newtonsoft.Json;
using Newtonsoft.Json.Converters;
using Newtonsoft.Json.Serialization;

namespace JsonLab.Adapters;

/// <summary>The Newtonsoft.Json settings an experiment may set on a JsonConvert variant (docs/experiments.md "Settings").</summary>
public static class NewtonsoftSettings
{
    public static readonly IReadOnlyList<SettingSpec> All =
    [
        new("dates", ["iso", "microsoft"], "DateFormatHandling: IsoDateFormat or MicrosoftDateFormat (\\/Date(ms)\\/)"),
        new("enums_as_strings", VariantSettings.YesNo, "a StringEnumConverter in Converters"),
        new("escaping", ["default", "non_ascii", "html"], "StringEscapeHandling: Default, EscapeNonAscii or EscapeHtml"),
        new("ignore_nulls", VariantSettings.YesNo, "NullValueHandling = Ignore"),
        new("indented", VariantSettings.YesNo, "Formatting = Indented"),
        new("naming", ["as_declared", "camelCase", "snake_case_lower"],
            "a DefaultContractResolver with DefaultNamingStrategy, CamelCaseNamingStrategy or SnakeCaseNamingStrategy"),
    ];

    /// <summary>The settings object (a new one where the variant had none) with the settings applied.</summary>
    public static JsonSerializerSettings Apply(JsonSerializerSettings settings, IReadOnlyList<KeyValuePair<string, string>> chosen)
    {
        foreach (var (key, value) in chosen)
        {
            switch (key)
            {
                case "dates": settings.DateFormatHandling = value switch { "iso" => DateFormatHandling.IsoDateFormat, "microsoft" => DateFormatHandling.MicrosoftDateFormat, _ => throw Unknown(key, value) }; break;
                case "enums_as_strings": if (VariantSettings.Flag(value)) settings.Converters.Add(new StringEnumConverter()); break;
                case "escaping": settings.StringEscapeHandling = Escaping(value); break;
                case "ignore_nulls": settings.NullValueHandling = VariantSettings.Flag(value) ? NullValueHandling.Ignore : NullValueHandling.Include; break;
                case "indented": settings.Formatting = VariantSettings.Flag(value) ? Formatting.Indented : Formatting.None; break;
                case "naming": settings.ContractResolver = new DefaultContractResolver { NamingStrategy = Naming(value) }; break;
                default: throw new LabException($"setting '{key}' has no case in NewtonsoftSettings.Apply", "give the setting its case beside its entry in NewtonsoftSettings.All");
            }
        }
        return settings;
    }

    private static StringEscapeHandling Escaping(string value) => value switch
    {
        "non_ascii" => StringEscapeHandling.EscapeNonAscii,
        "html" => StringEscapeHandling.EscapeHtml,
        "default" => StringEscapeHandling.Default,
        _ => throw Unknown("escaping", value),
    };

    private static NamingStrategy Naming(string value) => value switch
    {
        "camelCase" => new CamelCaseNamingStrategy(),
        "snake_case_lower" => new SnakeCaseNamingStrategy(),
        "as_declared" => new DefaultNamingStrategy(),
        _ => throw Unknown("naming", value),
    };

    private static LabException Unknown(string key, string value) =>
        new($"value '{value}' of setting '{key}' has no case in NewtonsoftSettings", "give the value its case beside its entry in NewtonsoftSettings.All");
}
