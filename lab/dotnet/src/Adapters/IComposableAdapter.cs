namespace JsonLab.Adapters;

/// <summary>
/// A variant whose steps can be chained inside one timed call (a composite operation such as
/// "serialize-then-deserialize", docs/experiments.md#composite-operations): it deserializes an input made inside the
/// call and serializes a value made inside it, with the options and overloads its Bind* methods use, so each step
/// is the same library call as the step measured alone.
/// </summary>
public interface IComposableAdapter
{
    /// <summary>False for a variant that keeps a composable variant's name on a runtime its library lacks.</summary>
    bool Chains => true;

    /// <summary>Deserialize of an input made inside the call: a string or byte[] per the variant's form (what its serialize yields).</summary>
    Func<object, T?> DeserializeInput<T>();

    /// <summary>Serialize of a value made inside the call; yields a string or byte[] per the variant's form.</summary>
    Func<T, object> SerializeValue<T>();
}
