using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Measurement;

namespace JsonLab.Verification;

/// <summary>
/// A composite operation (two steps in one timed call) is verified twice over: the step that starts from the dataset
/// as the cell of that step alone would be, then the chain's own result against the dataset, field by field: the
/// object "serialize-then-deserialize" reads back from its own output, or the text "deserialize-then-serialize"
/// writes (the second step is checked on the input it really gets).
/// </summary>
public static class CompositeVerifier
{
    public static VerificationResult Verify(ISerializerAdapter adapter, Payload payload, string operation)
    {
        var type = OperationBinder.TypeOf(adapter, payload, operation);
        var modelType = Verifier.TypeName(type);
        // The step that starts from the dataset, as its cell alone; the second step reads the first one's output, not
        // the dataset, and is checked on that input through the chain's result below.
        var first = OperationBinder.StepsOf(operation)[0];
        var alone = Verifier.Verify(adapter, payload, first);
        if (alone.Status != "passed")
            return alone with { ModelType = modelType, Message = $"step {first} alone: {alone.Message}" };
        if (operation == OperationBinder.DeserializeThenRead ? !OperationBinder.ReadsEveryValue(adapter) : !OperationBinder.IsComposable(adapter))
        {
            var error = operation == OperationBinder.DeserializeThenRead
                ? $"{adapter.Variant} cannot read every value of a tree ({operation}): the document variants do"
                : $"{adapter.Variant} cannot chain its steps inside one call ({operation}): its adapter reads only the dataset it was bound to";
            return new(adapter.Variant, payload.Name, modelType, "failed", 0, [], "skipped", error, error);
        }
        var mismatches = new MismatchList();
        try
        {
            foreach (var part in payload.Documents)
                Compare(OperationBinder.Bind(adapter, part, operation)(), part, type, operation, mismatches);
        }
        catch (Exception e)
        {
            var error = $"{adapter.Library} {adapter.LibraryVersion} cannot run {operation} on {modelType}: {Verifier.Describe(e)}";
            return new(adapter.Variant, payload.Name, modelType, "failed", 0, [], "skipped", error, error);
        }
        var message = mismatches.Count == 0
            ? $"step {first} verified alone; the chain's result matches the dataset field by field ({operation})"
            : $"the chain's result differs from the dataset in {mismatches.Count} field(s): {string.Join("; ", mismatches.Kept)}";
        return new(adapter.Variant, payload.Name, modelType, mismatches.Count == 0 ? "passed" : "failed",
            mismatches.Count, mismatches.Kept, alone.RoundTrip, message, PayloadBytes: payload.Utf8.Length);
    }

    private static void Compare(object? result, Payload part, Type type, string operation, MismatchList mismatches)
    {
        if (operation == OperationBinder.DeserializeThenRead)
        {
            // every value read: as many leaves as the dataset's canonical form has (the parse itself was verified alone)
            var expected = part.Canonical?.Leaves ?? -1;
            if (result is not long read || read != expected)
                mismatches.Add("leaves read", expected.ToString(System.Globalization.CultureInfo.InvariantCulture), $"{result}");
        }
        else if (OperationBinder.StepsOf(operation)[^1] == "deserialize")
            StructuralComparer.Compare(result, StructuralComparer.Parse(part.Text), type, "", mismatches);
        else
            StructuralComparer.Compare(ReferenceReader.Read(part, type), StructuralComparer.Parse(Verifier.AsText(result!)), type, "", mismatches);
    }
}
