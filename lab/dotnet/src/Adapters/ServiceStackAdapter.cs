using System.Text;
using JsonLab.Datasets;
using ServiceStack.Text;

namespace JsonLab.Adapters;

/// <summary>
/// ServiceStack.Text with a configuration scope opened inside every call (JsConfig.With), as write-up 004 did, or
/// with the library's defaults and no scope when <paramref name="config"/> is null.
/// UTF-8 form: decode then DeserializeFromSpan; write into a StringWriter then encode.
/// </summary>
public sealed class ServiceStackAdapter(string variant, string description, PayloadForm form, Func<Config>? config)
    : AdapterBase(variant, description, form)
{
    public override string Library => "ServiceStack.Text";
    public override string LibraryVersion => LibraryVersions.OfPackage("ServiceStack.Text");

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default
    {
        var (text, utf8) = (payload.Text, payload.Utf8);
        if (config is null)
            return ByForm<Func<T?>>(() => JsonSerializer.DeserializeFromString<T>(text),
                () => JsonSerializer.DeserializeFromSpan<T>(Encoding.UTF8.GetString(utf8).AsSpan()));
        return ByForm<Func<T?>>(() =>
        {
            using (JsConfig.With(config())) return JsonSerializer.DeserializeFromString<T>(text);
        }, () =>
        {
            using (JsConfig.With(config())) return JsonSerializer.DeserializeFromSpan<T>(Encoding.UTF8.GetString(utf8).AsSpan());
        });
    }

    public override Func<object> BindSerialize<T>(T value)
    {
        if (config is null)
            return ByForm<Func<object>>(() => JsonSerializer.SerializeToString(value), () => WriteUtf8(value));
        return ByForm<Func<object>>(() =>
        {
            using (JsConfig.With(config())) return JsonSerializer.SerializeToString(value);
        }, () =>
        {
            using (JsConfig.With(config())) return WriteUtf8(value);
        });
    }

    private static byte[] WriteUtf8<T>(T value)
    {
        using var writer = new StringWriter();
        JsonSerializer.SerializeToWriter(value, writer);
        return Encoding.UTF8.GetBytes(writer.ToString());
    }
}
