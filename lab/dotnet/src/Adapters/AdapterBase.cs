using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// What every adapter shares: its name, one-line description, payload form and model binding. Adapters build their
/// options or settings object once per process, on first use, and every bound call shares it.
/// </summary>
public abstract class AdapterBase(string variant, string description, PayloadForm form, ModelBinding binding = ModelBinding.Plain)
    : ISerializerAdapter
{
    public string Variant => variant;
    public abstract string Library { get; }
    public abstract string LibraryVersion { get; }
    public string Description => description;
    public PayloadForm Form => form;
    public ModelBinding Binding => binding;

    public abstract Func<T?> BindDeserialize<T>(Payload payload);
    public abstract Func<object> BindSerialize<T>(T value);

    /// <summary>Picks the string or the UTF-8 path by <see cref="Form"/>.</summary>
    protected TResult ByForm<TResult>(TResult text, TResult utf8) => form == PayloadForm.String ? text : utf8;
}
