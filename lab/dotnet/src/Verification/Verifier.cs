using System.Reflection;
using System.Text;
using System.Text.Json;
using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Measurement;
using JsonLab.Models;

namespace JsonLab.Verification;

/// <summary>
/// Checks that a variant really does the work a benchmark claims: its deserialized object
/// matches the dataset field by field, and serializing then deserializing gives it back.
/// Generic over models and variants: nothing here knows about a particular write-up.
/// </summary>
public static class Verifier
{
    private static readonly MethodInfo VerifyReadMethod =
        typeof(Verifier).GetMethod(nameof(VerifyRead), BindingFlags.NonPublic | BindingFlags.Static)!;

    private static readonly MethodInfo VerifyWriteMethod =
        typeof(Verifier).GetMethod(nameof(VerifyWrite), BindingFlags.NonPublic | BindingFlags.Static)!;

    /// <summary>
    /// Verifies one variant on one prepared dataset for one operation. Deserialize: the variant's object matches
    /// the dataset field by field and survives a round trip. Serialize: the variant's output is strict JSON whose
    /// fields match the value it was given (a member left out must hold its type's default).
    /// </summary>
    public static VerificationResult Verify(ISerializerAdapter adapter, Payload payload, string operation = "deserialize")
    {
        using var names = MemberNames.For(adapter);
        if (payload.Parts is not { } parts)
            return VerifyDocument(adapter, payload, operation);
        // A JSON Lines dataset: every document is checked; the first that fails speaks for the dataset.
        long total = 0;
        VerificationResult? first = null;
        foreach (var part in parts)
        {
            var result = VerifyDocument(adapter, part, operation);
            if (result.Status != "passed")
                return result with { Dataset = payload.Name, Message = $"document {part.Name}: {result.Message}" };
            first ??= result;
            total += result.PayloadBytes;
        }
        return first! with { Dataset = payload.Name, Message = $"all {parts.Count} documents: {first!.Message}", PayloadBytes = total };
    }

    private static VerificationResult VerifyDocument(ISerializerAdapter adapter, Payload payload, string operation)
    {
        if (operation == OperationBinder.NeedsEscaping)
            return VerifyEscaping(adapter, payload);
        if (OperationBinder.StepsOf(operation).Count > 0)
            return CompositeVerifier.Verify(adapter, payload, operation);
        if (adapter is IDocumentAdapter document)
            return DocumentVerifier.Verify(document, payload, operation);
        var type = OperationBinder.TypeOf(adapter, payload, operation);
        using var names = MemberNames.For(adapter, type);
        var method = operation == "serialize" ? VerifyWriteMethod : VerifyReadMethod;
        try
        {
            return (VerificationResult)method.MakeGenericMethod(type).Invoke(null, [adapter, payload])!;
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
            throw;
        }
    }

    /// <summary>"Type: first line of the message" plus the innermost cause, for a failed operation.</summary>
    public static string Describe(Exception e)
    {
        static string Line(Exception x) => $"{x.GetType().Name}: {x.Message.Split('\n')[0].Trim()}";
        var root = e;
        while (root.InnerException is not null) root = root.InnerException;
        return ReferenceEquals(root, e) ? Line(e) : $"{Line(e)} Root cause: {Line(root)}";
    }

    /// <summary>The characters the default encoder escapes, defined independently of both implementations' tables.</summary>
    public static int ReferenceFirstToEscape(string text)
    {
        for (var i = 0; i < text.Length; i++)
            if (text[i] >= WrittenAsIs.Length || !WrittenAsIs[text[i]])
                return i;
        return -1;
    }

    /// <summary>Printable ASCII except the characters the default encoder escapes.</summary>
    private static readonly bool[] WrittenAsIs = Enumerable.Range(0, 0x7F).Select(c => c >= 0x20 && !"\"&'+<>\\`".Contains((char)c)).ToArray();

    private static VerificationResult VerifyEscaping(ISerializerAdapter adapter, Payload payload)
    {
        var text = (string)ReferenceReader.Read(payload, typeof(string));
        var expected = ReferenceFirstToEscape(text);
        int actual;
        try
        {
            actual = (int)OperationBinder.Bind(adapter, payload, OperationBinder.NeedsEscaping)()!;
        }
        catch (Exception e)
        {
            var error = $"{adapter.Variant} cannot run here: {Describe(e)}";
            return new(adapter.Variant, payload.Name, "string", "failed", 0, [], "skipped", error, error);
        }
        return actual == expected
            ? new(adapter.Variant, payload.Name, "string", "passed", 0, [], "skipped", $"first character to escape at {expected}, as the reference rule says")
            : new(adapter.Variant, payload.Name, "string", "failed", 1, [$"index: expected {expected}, got {actual}"], "skipped",
                $"returned {actual}, the reference rule says {expected}");
    }

    private static VerificationResult VerifyRead<T>(ISerializerAdapter adapter, Payload payload)
    {
        var modelType = TypeName(typeof(T));
        T? actual;
        try
        {
            actual = adapter.BindDeserialize<T>(payload)();
        }
        catch (Exception e)
        {
            var error = $"{adapter.Library} {adapter.LibraryVersion} cannot deserialize {modelType}: {Describe(e)}";
            return new(adapter.Variant, payload.Name, modelType, "failed", 0, [], "error", error, error);
        }

        var mismatches = new MismatchList();
        StructuralComparer.Compare(actual, StructuralComparer.Parse(payload.Text), typeof(T), "", mismatches);
        var (roundTrip, roundTripDetail) = CheckRoundTrip<T>(adapter, payload);
        var passed = mismatches.Count == 0 && roundTrip == "passed";
        var message = passed
            ? "deserialized object matches the dataset field by field; round trip preserved it"
            : Describe(mismatches, roundTripDetail);
        return new(adapter.Variant, payload.Name, modelType, passed ? "passed" : "failed",
            mismatches.Count, mismatches.Kept, roundTrip, message, PayloadBytes: payload.Utf8.Length);
    }

    private static VerificationResult VerifyWrite<T>(ISerializerAdapter adapter, Payload payload)
    {
        var modelType = TypeName(typeof(T));
        var value = (T)ReferenceReader.Read(payload, typeof(T));
        string text;
        long outputBytes;
        try
        {
            var output = adapter.BindSerialize(value)();
            text = AsText(output);
            outputBytes = output is byte[] bytes ? bytes.Length : Encoding.UTF8.GetByteCount(text);
        }
        catch (Exception e)
        {
            var error = $"{adapter.Library} {adapter.LibraryVersion} cannot serialize {modelType}: {Describe(e)}";
            return new(adapter.Variant, payload.Name, modelType, "failed", 0, [], "skipped", error, error);
        }
        JsonElement? written;
        try
        {
            written = StructuralComparer.Parse(text);
        }
        catch (JsonException e)
        {
            return new(adapter.Variant, payload.Name, modelType, "failed", 0, [], "skipped", $"output is not strict JSON: {e.Message}");
        }
        var mismatches = new MismatchList();
        StructuralComparer.Compare(value, written, typeof(T), "", mismatches);
        var message = mismatches.Count == 0
            ? "serialized output is strict JSON and matches the value field by field"
            : Describe(mismatches, "");
        return new(adapter.Variant, payload.Name, modelType, mismatches.Count == 0 ? "passed" : "failed",
            mismatches.Count, mismatches.Kept, "skipped", message, PayloadBytes: outputBytes);
    }

    public static string AsText(object serialized) => serialized is byte[] bytes ? Encoding.UTF8.GetString(bytes) : (string)serialized;

    /// <summary>
    /// The variant reads back what it writes: the dataset's value (reference reader, the serialize cells' type) is
    /// serialized by the variant, must be strict JSON, and deserialized by the variant must match the dataset again.
    /// </summary>
    private static (string Status, string Detail) CheckRoundTrip<T>(ISerializerAdapter adapter, Payload payload)
    {
        try
        {
            var writeType = OperationBinder.TypeOf(adapter, payload, "serialize");
            var text = AsText(SerializeAs(writeType, adapter, ReferenceReader.Read(payload, writeType)));
            using (JsonDocument.Parse(text)) { }
            var again = adapter.BindDeserialize<T>(payload with { Text = text, Utf8 = Encoding.UTF8.GetBytes(text) })();
            var mismatches = new MismatchList(keep: 5);
            StructuralComparer.Compare(again, StructuralComparer.Parse(payload.Text), typeof(T), "", mismatches);
            return mismatches.Count == 0
                ? ("passed", "")
                : ("failed", $"round trip changed {mismatches.Count} field(s): {string.Join("; ", mismatches.Kept)}");
        }
        catch (Exception e)
        {
            return ("error", $"round trip threw {Describe(e)}");
        }
    }

    private static readonly MethodInfo SerializeTypedMethod =
        typeof(Verifier).GetMethod(nameof(SerializeTyped), BindingFlags.NonPublic | BindingFlags.Static)!;

    private static object SerializeAs(Type type, ISerializerAdapter adapter, object value)
    {
        try
        {
            return SerializeTypedMethod.MakeGenericMethod(type).Invoke(null, [adapter, value])!;
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
            throw;
        }
    }

    private static object SerializeTyped<T>(ISerializerAdapter adapter, object value) => adapter.BindSerialize((T)value)();

    private static string Describe(MismatchList mismatches, string roundTripDetail)
    {
        var parts = new List<string>();
        if (mismatches.Count > 0)
            parts.Add($"{mismatches.Count} field(s) differ from the dataset: {string.Join("; ", mismatches.Kept.Take(5))}"
                      + (mismatches.Count > 5 ? "; …" : ""));
        if (roundTripDetail.Length > 0)
            parts.Add(roundTripDetail);
        return string.Join(". ", parts);
    }

    /// <summary>C#-style type name, e.g. List&lt;Employee&gt;.</summary>
    public static string TypeName(Type t) =>
        t.IsGenericType
            ? $"{t.Name[..t.Name.IndexOf('`')]}<{string.Join(", ", t.GetGenericArguments().Select(TypeName))}>"
            : t.Name;
}
