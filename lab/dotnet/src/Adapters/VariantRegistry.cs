using System.Text.Json;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// Every serializer variant this lab offers, in one visible list.
/// A new variant is one line here (plus an adapter class for a new library).
/// </summary>
public static class VariantRegistry
{
    private static JsonSerializerOptions CaseInsensitive() => new() { PropertyNameCaseInsensitive = true };

    private static JsonSerializerOptions CamelPolicy() => new() { PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    // ASP.NET Core 3.x MVC defaults, as write-up 000's commenter benchmarked them. JsonSerializerDefaults.Web
    // (from .NET 5) also allows quoted numbers; it is offered separately as stj-web-defaults.
    private static JsonSerializerOptions AspNetCore3Defaults() =>
        new() { PropertyNameCaseInsensitive = true, PropertyNamingPolicy = JsonNamingPolicy.CamelCase };

    public static readonly IReadOnlyList<ISerializerAdapter> All =
    [
        new StjAdapter("stj-default", "System.Text.Json default options (case-sensitive), string input", PayloadForm.String, () => null),
        new StjAdapter("stj-default-utf8", "System.Text.Json default options (case-sensitive), UTF-8 input", PayloadForm.Utf8Bytes, () => null),
        new StjAdapter("stj-case-insensitive", "PropertyNameCaseInsensitive=true, options reused, string input", PayloadForm.String, CaseInsensitive),
        new StjAdapter("stj-case-insensitive-utf8", "PropertyNameCaseInsensitive=true, options reused, UTF-8 input", PayloadForm.Utf8Bytes, CaseInsensitive),
        new StjAdapter("stj-case-insensitive-options-per-call", "PropertyNameCaseInsensitive=true, new options built inside every call, string input", PayloadForm.String, CaseInsensitive, optionsPerCall: true),
        new StjAdapter("stj-annotated", "default options, model annotated with camelCase JsonPropertyName, string input", PayloadForm.String, () => null, ModelBinding.CamelAnnotated),
        new StjAdapter("stj-annotated-utf8", "default options, model annotated with camelCase JsonPropertyName, UTF-8 input", PayloadForm.Utf8Bytes, () => null, ModelBinding.CamelAnnotated),
        new StjAdapter("stj-camel-policy", "PropertyNamingPolicy=CamelCase (case-sensitive), string input", PayloadForm.String, CamelPolicy),
        new StjAdapter("stj-camel-policy-utf8", "PropertyNamingPolicy=CamelCase (case-sensitive), UTF-8 input", PayloadForm.Utf8Bytes, CamelPolicy),
        new StjAdapter("stj-aspnetcore3-defaults", "ASP.NET Core 3.x MVC defaults: case-insensitive + CamelCase policy, string input", PayloadForm.String, AspNetCore3Defaults),
        new StjAdapter("stj-aspnetcore3-defaults-utf8", "ASP.NET Core 3.x MVC defaults: case-insensitive + CamelCase policy, UTF-8 input", PayloadForm.Utf8Bytes, AspNetCore3Defaults),
        new StjAdapter("stj-web-defaults", "JsonSerializerDefaults.Web (case-insensitive, CamelCase, quoted numbers allowed), string input", PayloadForm.String, () => new(JsonSerializerDefaults.Web)),
        new NewtonsoftAdapter("newtonsoft-default", "Newtonsoft.Json JsonConvert default settings (case-insensitive), string input"),
    ];

    /// <summary>Finds a variant by name, or throws listing valid names and the nearest spelling.</summary>
    public static ISerializerAdapter Find(string name) =>
        All.FirstOrDefault(a => a.Variant == name)
        ?? throw new LabException(
            $"unknown variant '{name}' for lab dotnet" + Suggest(name),
            $"valid variants: {string.Join(", ", All.Select(a => a.Variant))}");

    private static string Suggest(string name)
    {
        var best = All.Select(a => a.Variant).MinBy(v => Levenshtein(v, name));
        return best is not null && Levenshtein(best, name) <= 3 ? $" (did you mean '{best}'?)" : "";
    }

    private static int Levenshtein(string a, string b)
    {
        var d = new int[a.Length + 1, b.Length + 1];
        for (var i = 0; i <= a.Length; i++) d[i, 0] = i;
        for (var j = 0; j <= b.Length; j++) d[0, j] = j;
        for (var i = 1; i <= a.Length; i++)
            for (var j = 1; j <= b.Length; j++)
                d[i, j] = Math.Min(Math.Min(d[i - 1, j] + 1, d[i, j - 1] + 1), d[i - 1, j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1));
        return d[a.Length, b.Length];
    }
}
