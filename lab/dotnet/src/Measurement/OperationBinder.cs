using System.Reflection;
using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Measurement;

/// <summary>
/// Turns (variant, dataset, operation) into one parameterless call, typed to the dataset's model.
/// All reflection happens here, once, before any timing.
/// </summary>
public static class OperationBinder
{
    /// <summary>Operations a cell may measure; names match the result row's "operation".</summary>
    public static readonly IReadOnlyList<string> Operations = ["deserialize", "serialize"];

    /// <summary>Returns the bound operation for a cell.</summary>
    public static Func<object?> Bind(ISerializerAdapter adapter, Payload payload, string operation)
    {
        var type = ModelCatalog.Resolve(payload.Model, adapter.Binding);
        var name = operation switch
        {
            "deserialize" => nameof(BindDeserialize),
            "serialize" => nameof(BindSerialize),
            _ => throw new LabException($"unknown operation '{operation}'", $"valid operations: {string.Join(", ", Operations)}"),
        };
        var method = typeof(OperationBinder).GetMethod(name, BindingFlags.NonPublic | BindingFlags.Static)!;
        return (Func<object?>)method.MakeGenericMethod(type).Invoke(null, [adapter, payload])!;
    }

    private static Func<object?> BindDeserialize<T>(ISerializerAdapter adapter, Payload payload)
    {
        var op = adapter.BindDeserialize<T>(payload);
        // Func<T> is covariant for reference types: no wrapper, so no extra call in the measured path.
        return op as Func<object?> ?? (() => op());
    }

    private static Func<object?> BindSerialize<T>(ISerializerAdapter adapter, Payload payload)
    {
        // The value to serialize is what this variant reads from the dataset (verified separately).
        var value = adapter.BindDeserialize<T>(payload)();
        var op = adapter.BindSerialize(value);
        return op;
    }
}
