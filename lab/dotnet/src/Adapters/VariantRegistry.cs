using System.Text.Json;
using JsonLab.Models;
using Newtonsoft.Json.Serialization;

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

    // Libraries with no build for .NET Core 3.1 keep their variant names there, as variants that fail with the reason.
#if LEGACY_RUNTIME
    private static ISerializerAdapter StjSourceGen(string variant, string description, PayloadForm form) =>
        new NotOnThisRuntimeAdapter(variant, "System.Text.Json (source generated)", description, form,
            "source generation needs System.Text.Json 6.0 or later; the in-box 4.0.1 is what this runtime measures",
            settings: StjSettings.SourceGenerated, chains: true);

    private static ISerializerAdapter StjSourceGenDeclared(string variant, string description, PayloadForm form) =>
        StjSourceGen(variant, description, form);

    private static ISerializerAdapter StjWebDefaults(string variant, string description) =>
        new NotOnThisRuntimeAdapter(variant, "System.Text.Json", description, PayloadForm.String, "JsonSerializerDefaults.Web arrived in .NET 5",
            settings: StjSettings.All, chains: true);

    private static ISerializerAdapter SpanJson(string variant, string description, PayloadForm form) =>
        new NotOnThisRuntimeAdapter(variant, "SpanJson", description, form, "SpanJson 4.0.1 ships lib/net6.0 only", chains: true);

    private static ISerializerAdapter StjNode(string variant, string description, PayloadForm form) =>
        new NotOnThisRuntimeAdapter(variant, "System.Text.Json", description, form, "JsonNode arrived in System.Text.Json 6.0", ModelBinding.Document,
            readsEveryValue: true);
#else
    private static ISerializerAdapter StjSourceGen(string variant, string description, PayloadForm form) =>
        new StjSourceGenAdapter(variant, description, form, [SimpleModelJsonContext.Default, .. SourceGenContexts.Camel]);

    private static ISerializerAdapter StjSourceGenDeclared(string variant, string description, PayloadForm form) =>
        new StjSourceGenAdapter(variant, description, form, SourceGenContexts.Declared);

    private static ISerializerAdapter StjWebDefaults(string variant, string description) =>
        new StjAdapter(variant, description, PayloadForm.String, () => new(JsonSerializerDefaults.Web));

    private static ISerializerAdapter SpanJson(string variant, string description, PayloadForm form) =>
        new SpanJsonAdapter(variant, description, form);

    private static ISerializerAdapter StjNode(string variant, string description, PayloadForm form) =>
        new StjNodeAdapter(variant, description, form);
#endif

    // Write-up 004's settings per library (shared/reference seed-sources §5.2).
    private static Newtonsoft.Json.JsonSerializerSettings NewtonsoftCamelIso() =>
        new() { ContractResolver = new CamelCasePropertyNamesContractResolver(), DateFormatHandling = Newtonsoft.Json.DateFormatHandling.IsoDateFormat };

    private static Jil.Options JilCamelIso() => new(dateFormat: Jil.DateTimeFormat.ISO8601, serializationNameFormat: Jil.SerializationNameFormat.CamelCase);

    private static NetJSON.NetJSONSettings NetJsonCamelIsoUtc() =>
        new() { DateFormat = NetJSON.NetJSONDateFormat.ISO, TimeZoneFormat = NetJSON.NetJSONTimeZoneFormat.Utc, UseStringOptimization = true, CamelCase = true };

#if LAB_SERVICESTACK
    private static ServiceStack.Text.Config ServiceStackCamelIsoUtc() =>
        new() { DateHandler = ServiceStack.Text.DateHandler.ISO8601, AlwaysUseUtc = true, TextCase = ServiceStack.Text.TextCase.CamelCase };
#endif

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
        StjWebDefaults("stj-web-defaults", "JsonSerializerDefaults.Web (case-insensitive, CamelCase, quoted numbers allowed), string input"),
        new NewtonsoftAdapter("newtonsoft-default", "Newtonsoft.Json JsonConvert default settings (case-insensitive), string input"),
        StjSourceGen("stj-sourcegen-camel", "System.Text.Json source-generated context, CamelCase policy, string", PayloadForm.String),
        StjSourceGen("stj-sourcegen-camel-utf8", "System.Text.Json source-generated context, CamelCase policy, UTF-8 bytes", PayloadForm.Utf8Bytes),
        StjSourceGenDeclared("stj-sourcegen", "System.Text.Json source-generated context of a declared model, its model file's options (STJ's defaults: names as declared), string", PayloadForm.String),
        StjSourceGenDeclared("stj-sourcegen-utf8", "System.Text.Json source-generated context of a declared model, its model file's options (STJ's defaults: names as declared), UTF-8 bytes", PayloadForm.Utf8Bytes),
        new NewtonsoftAdapter("newtonsoft-camel-iso", "Newtonsoft.Json, camelCase contract resolver, ISO dates, string", PayloadForm.String, NewtonsoftCamelIso),
        new NewtonsoftAdapter("newtonsoft-camel-iso-utf8", "Newtonsoft.Json, camelCase contract resolver, ISO dates; UTF-8 through Encoding.UTF8 string conversion", PayloadForm.Utf8Bytes, NewtonsoftCamelIso),
        new JilAdapter("jil-camel-iso", "Jil, ISO 8601 dates, camelCase names, string", PayloadForm.String, JilCamelIso),
        new JilAdapter("jil-camel-iso-utf8", "Jil, ISO 8601 dates, camelCase names; UTF-8 through Encoding.UTF8 (read) and a StringWriter (write)", PayloadForm.Utf8Bytes, JilCamelIso),
        new NetJsonAdapter("netjson-camel-iso-utc", "NetJSON, camelCase, ISO UTC dates, string optimization, string", PayloadForm.String, NetJsonCamelIsoUtc),
        new NetJsonAdapter("netjson-camel-iso-utc-utf8", "NetJSON, camelCase, ISO UTC dates; UTF-8 through Encoding.UTF8 (read) and a StringWriter (write)", PayloadForm.Utf8Bytes, NetJsonCamelIsoUtc),
#if LAB_SERVICESTACK  // under its vendor's terms: only in a build whose user accepted them (docs/licences.md)
        new ServiceStackAdapter("servicestack-camel-iso-utc", "ServiceStack.Text, JsConfig.With(camelCase, ISO 8601, UTC) around every call, string", PayloadForm.String, ServiceStackCamelIsoUtc),
#endif
#if LAB_SERVICESTACK  // under its vendor's terms: only in a build whose user accepted them (docs/licences.md)
        new ServiceStackAdapter("servicestack-camel-iso-utc-utf8", "ServiceStack.Text, JsConfig.With(camelCase, ISO 8601, UTC) around every call; UTF-8 through Encoding.UTF8 and a StringWriter", PayloadForm.Utf8Bytes, ServiceStackCamelIsoUtc),
#endif
        SpanJson("spanjson-default", "SpanJson default resolver, JsonSerializer.Generic.Utf16 (string)", PayloadForm.String),
        SpanJson("spanjson-default-utf8", "SpanJson default resolver, JsonSerializer.Generic.Utf8 (UTF-8 bytes)", PayloadForm.Utf8Bytes),
        new Utf8JsonAdapter("utf8json-default", "Utf8Json default resolver, string (writes UTF-8, then Encoding.UTF8.GetString)", PayloadForm.String),
        new Utf8JsonAdapter("utf8json-default-utf8", "Utf8Json default resolver, UTF-8 bytes", PayloadForm.Utf8Bytes),
        new JilAdapter("jil-default", "Jil, default options (member names as declared, Newtonsoft-style dates), string", PayloadForm.String, () => Jil.Options.Default),
        new NetJsonAdapter("netjson-default", "NetJSON, default settings (member names as declared), string", PayloadForm.String, () => new NetJSON.NetJSONSettings()),
#if LAB_SERVICESTACK  // under its vendor's terms: only in a build whose user accepted them (docs/licences.md)
        new ServiceStackAdapter("servicestack-default", "ServiceStack.Text, library defaults (no JsConfig scope), string", PayloadForm.String, null),
#endif
        new JsonSrcGenAdapter("jsonsrcgen", "JsonSrcGen compile-time converter, string (ToJson(...).ToString())", PayloadForm.String),
        new EscapingCheckAdapter("needs-escaping-scalar", "write-up 002 'Current': one character at a time against the default encoder's allow-list", JsonLab.Escaping.NeedsEscaping.Scalar, nameof(JsonLab.Measurement.EscapingBenchmark.Scalar)),
        new EscapingCheckAdapter("needs-escaping-sse2", "write-up 002 'Intrinsics': eight characters at a time with SSE2 compares, then the scalar tail", JsonLab.Escaping.NeedsEscaping.Sse2Vectorized, nameof(JsonLab.Measurement.EscapingBenchmark.Sse2)),
        new JsonSrcGenAdapter("jsonsrcgen-utf8", "JsonSrcGen compile-time converter, UTF-8 bytes (ToJsonUtf8(...).ToArray())", PayloadForm.Utf8Bytes),
        // Untyped documents (binding "document"): the library's own tree, verified against the dataset's canonical digest.
        new StjDocumentAdapter("stj-jsondocument", "System.Text.Json JsonDocument.Parse of a string (disposed after each parse); JsonElement.WriteTo a Utf8JsonWriter, decoded to a string", PayloadForm.String),
        new StjDocumentAdapter("stj-jsondocument-utf8", "System.Text.Json JsonDocument.Parse of UTF-8 bytes (disposed after each parse); JsonElement.WriteTo a Utf8JsonWriter", PayloadForm.Utf8Bytes),
        StjNode("stj-jsonnode", "System.Text.Json JsonNode.Parse of a string (child nodes built on first read); ToJsonString()", PayloadForm.String),
        StjNode("stj-jsonnode-utf8", "System.Text.Json JsonNode.Parse of UTF-8 bytes (child nodes built on first read); writes to UTF-8 bytes", PayloadForm.Utf8Bytes),
        new NewtonsoftTokenAdapter("newtonsoft-jtoken", "Newtonsoft.Json JToken.Load over a JsonTextReader (dates kept as strings); ToString(Formatting.None)", PayloadForm.String),
        new NewtonsoftTokenAdapter("newtonsoft-jtoken-utf8", "Newtonsoft.Json JToken, UTF-8 through Encoding.UTF8 both ways (no UTF-8 reader or writer)", PayloadForm.Utf8Bytes),
    ];

    /// <summary>
    /// Finds a variant by name, or throws listing valid names and the nearest spelling; a name with settings
    /// ("stj-default+indented=true") is its base variant with them applied (<see cref="VariantSettings"/>).
    /// </summary>
    public static ISerializerAdapter Find(string name)
    {
        var (baseName, settings) = VariantSettings.Parse(name);
        var adapter = FindBase(baseName);
        return settings.Count == 0 ? adapter : VariantSettings.Derive(adapter, name, settings);
    }

    private static ISerializerAdapter FindBase(string name) =>
        All.FirstOrDefault(a => a.Variant == name)
        ?? throw new LabException(
            $"unknown variant '{name}' for lab dotnet" + Suggest(name),
            $"valid variants: {string.Join(", ", All.Select(a => a.Variant))}");

    private static string Suggest(string name)
    {
        var best = All.Select(a => a.Variant).OrderBy(v => Levenshtein(v, name)).FirstOrDefault();
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
