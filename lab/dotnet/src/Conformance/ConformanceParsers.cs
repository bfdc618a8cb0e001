using System.Text;
using System.Text.Json;
using JsonLab.Adapters;
using Newtonsoft.Json.Linq;

namespace JsonLab.Conformance;

/// <summary>
/// One library's untyped parse of raw file bytes, as an application would call it: returning means the text was accepted,
/// throwing means it was rejected. Libraries without a UTF-8 reader get the bytes decoded with Encoding.UTF8, which
/// replaces invalid sequences with U+FFFD (what a server's string decoding does), and the parser sees that text.
/// </summary>
public sealed record ConformanceParser(string Name, string Library, Func<string> Version, string Description, Action<byte[]> Parse);

/// <summary>Every parser the `conformance` verb can run, in one visible list.</summary>
public static class ConformanceParsers
{
    private static string Text(byte[] bytes) => Encoding.UTF8.GetString(bytes);

    public static readonly IReadOnlyList<ConformanceParser> All =
    [
        new("stj-jsondocument", "System.Text.Json", () => LibraryVersions.Of(typeof(JsonDocument).Assembly),
            "JsonDocument.Parse of the bytes, default options (no comments, no trailing commas, depth 64)",
            bytes => { using var _ = JsonDocument.Parse(bytes); }),
        new("newtonsoft-jtoken", "Newtonsoft.Json", () => LibraryVersions.OfLoaded(typeof(JToken), "Newtonsoft.Json"),
            "JToken.Parse of the bytes decoded with Encoding.UTF8, default settings",
            bytes => JToken.Parse(Text(bytes))),
        new("utf8json-object", "Utf8Json", () => LibraryVersions.OfPackage("Utf8Json"),
            "Utf8Json.JsonSerializer.Deserialize<object> of the bytes (dictionaries, lists and primitives)",
            bytes => Utf8Json.JsonSerializer.Deserialize<object>(bytes)),
        new("jil-dynamic", "Jil", () => LibraryVersions.OfPackage("Jil"),
            "Jil.JSON.DeserializeDynamic of the bytes decoded with Encoding.UTF8",
            bytes => Jil.JSON.DeserializeDynamic(Text(bytes))),
        new("netjson-object", "NetJSON", () => LibraryVersions.OfPackage("NetJSON"),
            "NetJSON.DeserializeObject of the bytes decoded with Encoding.UTF8 (its untyped entry point: dictionaries, lists and primitives)",
            bytes => NetJSON.NetJSON.DeserializeObject(Text(bytes))),
#if !LEGACY_RUNTIME
        new("spanjson-object", "SpanJson", () => LibraryVersions.OfPackage("SpanJson"),
            "SpanJson.JsonSerializer.Generic.Utf8.Deserialize<object> of the bytes (its dynamic values)",
            bytes => SpanJson.JsonSerializer.Generic.Utf8.Deserialize<object>(bytes)),
#endif
    ];

    public static ConformanceParser Find(string name) =>
        All.FirstOrDefault(p => p.Name == name)
        ?? throw new LabException($"unknown conformance parser '{name}'", $"valid parsers: {string.Join(", ", All.Select(p => p.Name))}");
}
