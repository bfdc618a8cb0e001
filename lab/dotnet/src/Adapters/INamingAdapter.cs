namespace JsonLab.Adapters;

/// <summary>
/// An adapter whose member names depend on the model it writes, not only on its settings: the source-generated
/// System.Text.Json variants, whose declared contexts carry each model file's own naming policy. The verifier matches
/// members separator-blind for a model whose names this adapter writes in snake or kebab case
/// (Verification/MemberNames.cs).
/// </summary>
public interface INamingAdapter
{
    bool WritesSeparatedNames(Type model);
}
