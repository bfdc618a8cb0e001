using JsonLab.Datasets;
using JsonLab.Models;
using Newtonsoft.Json;

namespace JsonLab.Adapters;

/// <summary>Newtonsoft.Json JsonConvert with its default settings (case-insensitive matching), string form.</summary>
public sealed class NewtonsoftAdapter(string variant, string description) : ISerializerAdapter
{
    public string Variant => variant;
    public string Library => "Newtonsoft.Json";
    public string LibraryVersion => LibraryVersions.Of(typeof(JsonConvert).Assembly);
    public string Description => description;
    public PayloadForm Form => PayloadForm.String;
    public ModelBinding Binding => ModelBinding.Plain;

    public Func<T?> BindDeserialize<T>(Payload payload)
    {
        var text = payload.Text;
        return () => JsonConvert.DeserializeObject<T>(text);
    }

    public Func<object> BindSerialize<T>(T value) => () => JsonConvert.SerializeObject(value);
}
