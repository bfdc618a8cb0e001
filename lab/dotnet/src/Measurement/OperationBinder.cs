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
    public static readonly IReadOnlyList<string> Operations = ["deserialize", "serialize", NeedsEscaping];

    /// <summary>
    /// Composite operations: two steps chained inside one timed call, each the same library call as the step measured
    /// alone (variants that are <see cref="IComposableAdapter"/>). "serialize-then-deserialize" writes the dataset's
    /// value and reads the output back; "deserialize-then-serialize" reads the dataset and writes the object it read;
    /// "deserialize-then-read" parses into a document variant's tree and reads every value of it
    /// (<see cref="IValueReadingAdapter"/>).
    /// </summary>
    public static readonly IReadOnlyList<string> Composites = [SerializeThenDeserialize, DeserializeThenSerialize, DeserializeThenRead];

    public const string SerializeThenDeserialize = "serialize-then-deserialize";
    public const string DeserializeThenSerialize = "deserialize-then-serialize";
    public const string DeserializeThenRead = "deserialize-then-read";

    /// <summary>The steps of a composite operation, in order (empty for a single step).</summary>
    public static IReadOnlyList<string> StepsOf(string operation) => operation switch
    {
        SerializeThenDeserialize => ["serialize", "deserialize"],
        DeserializeThenSerialize => ["deserialize", "serialize"],
        DeserializeThenRead => ["deserialize", "read"],
        _ => [],
    };

    /// <summary>Write-up 002's micro-benchmark: an escaping check over the dataset's string (escaping variants only).</summary>
    public const string NeedsEscaping = "needs-escaping";

    /// <summary>Boxed results -1..255, so an escaping check returns its index without allocating.</summary>
    private static readonly object[] BoxedIndex = Enumerable.Range(-1, 257).Select(i => (object)i).ToArray();

    /// <summary>The CLR type an operation works on for this variant and dataset.</summary>
    public static Type TypeOf(ISerializerAdapter adapter, Payload payload, string operation)
    {
        if (adapter.Binding == ModelBinding.Document && operation != NeedsEscaping)
            // A document variant works on its library's tree; one whose library is not on this runtime binds object and fails when called.
            return adapter is IDocumentAdapter document ? document.TreeType : typeof(object);
        if (payload.Model == Payload.NoModel)
            throw new LabException($"dataset '{payload.Name}' declares no model, so {adapter.Variant} (a typed variant) cannot bind it",
                "pick a dataset with a model in datasets/manifest.json, or a document variant (binding document in `list`)");
        if (operation == DeserializeThenRead)
            throw new LabException($"{adapter.Variant} binds a model, and {DeserializeThenRead} reads a document variant's tree",
                "pick a document variant (binding document in `list`: JsonDocument, JsonNode, JToken)");
        var shape = ModelCatalog.Resolve(payload.Model, adapter.Binding);
        if (StepsOf(operation).Count > 0 && shape.Read != shape.Write)
            throw new LabException($"model '{payload.Model}' reads {Verification.Verifier.TypeName(shape.Read)} and writes {Verification.Verifier.TypeName(shape.Write)}: {operation} would chain other calls than its steps alone",
                "a composite operation needs a model whose read and write types agree");
        return operation switch
        {
            // A chain that ends writing writes the object it read, of the type it read
            "deserialize" or SerializeThenDeserialize or DeserializeThenSerialize => shape.Read,
            "serialize" => shape.Write,
            NeedsEscaping => shape.Read,
            _ => throw new LabException($"unknown operation '{operation}'", $"valid operations: {string.Join(", ", Operations.Concat(Composites))}"),
        };
    }

    /// <summary>Returns the bound operation for a cell.</summary>
    public static Func<object?> Bind(ISerializerAdapter adapter, Payload payload, string operation)
    {
        var type = TypeOf(adapter, payload, operation);
        if (operation == NeedsEscaping)
            return BindEscaping(adapter, payload);
        if (operation == DeserializeThenRead)
            return BindParseThenRead(adapter, payload);
        var (name, types) = operation switch
        {
            "deserialize" => (nameof(BindDeserialize), new[] { type }),
            "serialize" => (nameof(BindSerialize), new[] { type }),
            SerializeThenDeserialize => (nameof(BindSerializeThenDeserialize), new[] { TypeOf(adapter, payload, "serialize"), type }),
            _ => (nameof(BindDeserializeThenSerialize), new[] { type }),
        };
        var method = typeof(OperationBinder).GetMethod(name, BindingFlags.NonPublic | BindingFlags.Static)!;
        try
        {
            return (Func<object?>)method.MakeGenericMethod(types).Invoke(null, [adapter, payload])!;
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
            throw;
        }
    }

    private static Func<object?> BindDeserialize<T>(ISerializerAdapter adapter, Payload payload)
    {
        if (payload.Parts is { } parts)
            return Loop(parts.Select(adapter.BindDeserialize<T>).ToArray());
        var op = adapter.BindDeserialize<T>(payload);
        // Func<T> is covariant for reference types: no wrapper, so no extra call in the measured path.
        return op as Func<object?> ?? (() => op());
    }

    private static Func<object?> BindSerialize<T>(ISerializerAdapter adapter, Payload payload) =>
        // A document variant writes a tree it parsed itself (its library's own representation of the dataset).
        adapter is IDocumentAdapter document ? adapter.BindSerialize((T)document.ParseTree(payload))
        // Every other variant writes the same values, read by the reference reader (verified separately).
        : payload.Parts is { } parts
            ? Loop(parts.Select(p => adapter.BindSerialize((T)ReferenceReader.Read(p, typeof(T)))).ToArray())
            : adapter.BindSerialize((T)ReferenceReader.Read(payload, typeof(T)));

    private static Func<object?> BindSerializeThenDeserialize<TWrite, TRead>(ISerializerAdapter adapter, Payload payload)
    {
        var deserialize = Composable(adapter, SerializeThenDeserialize).DeserializeInput<TRead>();
        Func<object?> Chain(Payload part)
        {
            var serialize = adapter.BindSerialize((TWrite)ReferenceReader.Read(part, typeof(TWrite)));
            return () => deserialize(serialize());
        }
        return payload.Parts is { } parts ? Loop(parts.Select(Chain).ToArray()) : Chain(payload);
    }

    private static Func<object?> BindDeserializeThenSerialize<T>(ISerializerAdapter adapter, Payload payload)
    {
        var serialize = Composable(adapter, DeserializeThenSerialize).SerializeValue<T>();
        Func<object?> Chain(Payload part)
        {
            var deserialize = adapter.BindDeserialize<T>(part);
            return () => serialize(deserialize()!);
        }
        return payload.Parts is { } parts ? Loop(parts.Select(Chain).ToArray()) : Chain(payload);
    }

    /// <summary>A document variant's parse then its walk of every value; the leaves read come back pre-boxed when they are
    /// the dataset's count (no allocation per call), else boxed (verification then fails).</summary>
    private static Func<object?> BindParseThenRead(ISerializerAdapter adapter, Payload payload)
    {
        if (adapter is not IValueReadingAdapter { ReadsEveryValue: true } reading)
            throw new LabException($"{adapter.Variant} cannot read every value of a tree ({DeserializeThenRead})",
                "the document variants do (binding document in `list`: JsonDocument, JsonNode, JToken)");
        Func<object?> Chain(Payload part)
        {
            var read = reading.BindParseThenRead(part);
            var expected = part.Canonical?.Leaves ?? -1;
            object boxed = expected;
            return () => read() is var leaves && leaves == expected ? boxed : leaves;
        }
        return payload.Parts is { } parts ? Loop(parts.Select(Chain).ToArray()) : Chain(payload);
    }

    /// <summary>The composite operations a variant runs (`list`: its composites).</summary>
    public static IReadOnlyList<string> CompositesOf(ISerializerAdapter adapter) =>
        Composites.Where(c => c == DeserializeThenRead ? ReadsEveryValue(adapter) : IsComposable(adapter)).ToArray();

    /// <summary>True for a variant that reads every value of its tree.</summary>
    public static bool ReadsEveryValue(ISerializerAdapter adapter) => adapter is IValueReadingAdapter { ReadsEveryValue: true };

    /// <summary>True for a variant that chains its steps inside one call (`list`: composable).</summary>
    public static bool IsComposable(ISerializerAdapter adapter) => adapter is IComposableAdapter { Chains: true };

    private static IComposableAdapter Composable(ISerializerAdapter adapter, string operation) =>
        adapter is IComposableAdapter { Chains: true } chain
            ? chain
            : throw new LabException($"{adapter.Variant} cannot chain its steps inside one call ({operation}): its adapter reads only the dataset it was bound to",
            "composite operations are offered by the System.Text.Json, Newtonsoft.Json, SpanJson, Utf8Json, Jil and NetJSON variants (`list`: composable)");

    /// <summary>The escaping check over the dataset's string; the index comes back pre-boxed (no allocation per call).</summary>
    private static Func<object?> BindEscaping(ISerializerAdapter adapter, Payload payload)
    {
        var check = adapter as IEscapingCheckAdapter
            ?? throw new LabException($"operation {NeedsEscaping} needs an escaping-check variant, not {adapter.Variant}", "use needs-escaping-scalar or needs-escaping-sse2");
        var text = ReferenceReader.Read(payload, typeof(string)) as string
            ?? throw new LabException($"dataset '{payload.Name}' is not a JSON string", $"operation {NeedsEscaping} reads a dataset of model string");
        if (text.Length > 255)
            throw new LabException($"dataset '{payload.Name}' is longer than 255 characters", "the escaping cases are at most 100 characters");
        return () => BoxedIndex[check.FirstToEscape(text) + 1];
    }

    /// <summary>One call per document of a JSON Lines dataset, in order; the last result is returned.</summary>
    private static Func<object?> Loop<TResult>(Func<TResult>[] calls) => () =>
    {
        object? last = null;
        foreach (var call in calls)
            last = call();
        return last;
    };
}
