namespace JsonLab.Adapters;

/// <summary>
/// A document variant that can parse and then read every value of the tree it made, in one timed call (the composite
/// "deserialize-then-read", docs/experiments.md#composite-operations-several-steps-in-one-timed-call): what a program
/// that parses into a tree then does with it. The walk is the library's own API (JsonElement enumeration, JsonNode
/// indexers, JToken children), reads every string and number as its .NET value, and returns how many leaves it read
/// (the canonical form's count, which verification compares).
/// </summary>
public interface IValueReadingAdapter
{
    /// <summary>False for a variant that keeps a reading variant's name on a runtime its library lacks.</summary>
    bool ReadsEveryValue => true;

    /// <summary>The parse of the payload in this variant's form, then the walk of every value; returns the leaves read.</summary>
    Func<long> BindParseThenRead(Datasets.Payload payload);
}
