using JsonLab.Datasets;
using JsonLab.Models;
using SrcGenConverter = JsonSrcGen.JsonConverter;

namespace JsonLab.Adapters;

/// <summary>
/// JsonSrcGen: code generated at compile time for each [Json] type, so this adapter serves exactly the types it
/// was generated for: SimpleSrcGenModel[] (written by hand), and the JsonSrcGen twins of the declared models whose
/// kinds JsonSrcGen reads (Models/Declared, written by the harness: harness/codegen/jsonsrcgen.py, which also
/// writes <see cref="DeclaredDeserialize{T}"/> and <see cref="DeclaredSerialize{T}"/>). One static converter, as
/// write-up 004 used; its output span is a view of the converter's buffer, copied out (ToString / ToArray) inside the
/// measured call as there.
/// </summary>
public sealed partial class JsonSrcGenAdapter(string variant, string description, PayloadForm form)
    : AdapterBase(variant, description, form, ModelBinding.JsonSrcGen)
{
    private static readonly SrcGenConverter Converter = new();

    public override string Library => "JsonSrcGen";
    public override string LibraryVersion => LibraryVersions.OfPackage("JsonSrcGen");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        if (typeof(T) != typeof(SimpleSrcGenModel[]))
        {
            Func<T?>? declared = null;
            DeclaredDeserialize(payload.Text, payload.Utf8, Form == PayloadForm.Utf8Bytes, ref declared);
            return declared ?? throw NoCode(typeof(T));
        }
        var (text, utf8) = (payload.Text, payload.Utf8);
        Func<SimpleSrcGenModel?[]?> op = ByForm<Func<SimpleSrcGenModel?[]?>>(
            () => Converter.FromJson(new List<SimpleSrcGenModel>().ToArray(), text),
            () => Converter.FromJson(new List<SimpleSrcGenModel>().ToArray(), utf8));
        return (Func<T?>)(object)op;
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        if (typeof(T) != typeof(SimpleSrcGenModel[]))
        {
            Func<object>? declared = null;
            DeclaredSerialize(value, Form == PayloadForm.Utf8Bytes, ref declared);
            return declared ?? throw NoCode(typeof(T));
        }
        var models = (SimpleSrcGenModel[])(object)value!;
        return ByForm<Func<object>>(() => Converter.ToJson(models).ToString(), () => Converter.ToJsonUtf8(models).ToArray());
    }

    private static LabException NoCode(Type type) =>
        new($"JsonSrcGen has no generated code for {type}",
            "JsonSrcGen serves SimpleSrcGenModel[] and the JsonSrcGen twins of declared models (binding jsonsrcgen); add a [Json] twin and a JsonArray attribute for another hand-written model");

    /// <summary>The read of a declared model's JsonSrcGen twin (written by the harness); null leaves <paramref name="call"/> unset.</summary>
    static partial void DeclaredDeserialize<T>(string text, byte[] utf8, bool fromUtf8, ref Func<T?>? call);

    /// <summary>The write of a declared model's JsonSrcGen twin (written by the harness).</summary>
    static partial void DeclaredSerialize<T>(T value, bool toUtf8, ref Func<object>? call);
}
