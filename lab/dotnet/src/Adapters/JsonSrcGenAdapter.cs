using JsonLab.Datasets;
using JsonLab.Models;
using SrcGenConverter = JsonSrcGen.JsonConverter;

namespace JsonLab.Adapters;

/// <summary>
/// JsonSrcGen: code generated at compile time for each [Json] type, so this adapter serves exactly the types it
/// was generated for (SimpleSrcGenModel[]). One static converter, as write-up 004 used; its output span is a view
/// of the converter's buffer, copied out (ToString / ToArray) inside the measured call as there.
/// </summary>
public sealed class JsonSrcGenAdapter(string variant, string description, PayloadForm form)
    : AdapterBase(variant, description, form, ModelBinding.JsonSrcGen)
{
    private static readonly SrcGenConverter Converter = new();

    public override string Library => "JsonSrcGen";
    public override string LibraryVersion => LibraryVersions.OfPackage("JsonSrcGen");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        Supported(typeof(T));
        var (text, utf8) = (payload.Text, payload.Utf8);
        Func<SimpleSrcGenModel?[]?> op = ByForm<Func<SimpleSrcGenModel?[]?>>(
            () => Converter.FromJson(new List<SimpleSrcGenModel>().ToArray(), text),
            () => Converter.FromJson(new List<SimpleSrcGenModel>().ToArray(), utf8));
        return (Func<T?>)(object)op;
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        Supported(typeof(T));
        var models = (SimpleSrcGenModel[])(object)value!;
        return ByForm<Func<object>>(() => Converter.ToJson(models).ToString(), () => Converter.ToJsonUtf8(models).ToArray());
    }

    private static void Supported(Type type)
    {
        if (type != typeof(SimpleSrcGenModel[]))
            throw new LabException($"JsonSrcGen has no generated code for {type}", "JsonSrcGen serves only SimpleSrcGenModel[] here; add a [Json] twin and a JsonArray attribute for another model");
    }
}
