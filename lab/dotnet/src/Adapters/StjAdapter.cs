using System.Reflection;
using System.Text.Json;
using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// System.Text.Json with one set of options. Options are built once when the operation is
/// bound, unless <paramref name="optionsPerCall"/> asks for a new instance inside every call
/// (as write-up 001's repository did).
/// </summary>
public sealed class StjAdapter(
    string variant,
    string description,
    PayloadForm form,
    Func<JsonSerializerOptions?> options,
    ModelBinding binding = ModelBinding.Plain,
    bool optionsPerCall = false) : ISerializerAdapter
{
    public string Variant => variant;
    public string Library => "System.Text.Json";
    public string LibraryVersion => LibraryVersions.Of(typeof(JsonSerializer).Assembly);
    public string Description => description;
    public PayloadForm Form => form;
    public ModelBinding Binding => binding;

    /// <summary>True when the options object is created inside the measured call.</summary>
    public bool OptionsPerCall => optionsPerCall;

    public Func<T?> BindDeserialize<T>(Payload payload)
    {
        var text = payload.Text;
        var utf8 = payload.Utf8;
        if (optionsPerCall)
            return form == PayloadForm.String
                ? () => JsonSerializer.Deserialize<T>(text, options())
                : () => JsonSerializer.Deserialize<T>(utf8, options());
        var shared = options();
        return form == PayloadForm.String
            ? () => JsonSerializer.Deserialize<T>(text, shared)
            : () => JsonSerializer.Deserialize<T>(utf8, shared);
    }

    public Func<object> BindSerialize<T>(T value)
    {
        if (optionsPerCall)
            return form == PayloadForm.String
                ? () => JsonSerializer.Serialize(value, options())
                : () => JsonSerializer.SerializeToUtf8Bytes(value, options());
        var shared = options();
        return form == PayloadForm.String
            ? () => JsonSerializer.Serialize(value, shared)
            : () => JsonSerializer.SerializeToUtf8Bytes(value, shared);
    }
}
