using System.Reflection;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Verification;

/// <summary>
/// Checks that a variant really does the work a benchmark claims: its deserialized object
/// matches the dataset field by field, and serializing then deserializing gives it back.
/// Generic over models and variants: nothing here knows about a particular write-up.
/// </summary>
public static class Verifier
{
    private static readonly MethodInfo VerifyTypedMethod =
        typeof(Verifier).GetMethod(nameof(VerifyTyped), BindingFlags.NonPublic | BindingFlags.Static)!;

    /// <summary>Verifies one variant on one prepared dataset.</summary>
    public static VerificationResult Verify(ISerializerAdapter adapter, Payload payload)
    {
        var type = ModelCatalog.Resolve(payload.Model, adapter.Binding);
        try
        {
            return (VerificationResult)VerifyTypedMethod.MakeGenericMethod(type).Invoke(null, [adapter, payload])!;
        }
        catch (TargetInvocationException e) when (e.InnerException is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(e.InnerException);
            throw;
        }
    }

    private static VerificationResult VerifyTyped<T>(ISerializerAdapter adapter, Payload payload)
    {
        var modelType = TypeName(typeof(T));
        T? actual;
        try
        {
            actual = adapter.BindDeserialize<T>(payload)();
        }
        catch (Exception e)
        {
            return new(adapter.Variant, payload.Name, modelType, "failed", 0, [], "error",
                $"deserialize threw {e.GetType().Name}: {e.Message}");
        }

        var mismatches = new MismatchList();
        StructuralComparer.Compare(actual, JsonNode.Parse(payload.Text), typeof(T), "", mismatches);
        var (roundTrip, roundTripDetail) = CheckRoundTrip(adapter, payload, actual);
        var passed = mismatches.Count == 0 && roundTrip == "passed";
        var message = passed
            ? "deserialized object matches the dataset field by field; round trip preserved it"
            : Describe(mismatches, roundTripDetail);
        return new(adapter.Variant, payload.Name, modelType, passed ? "passed" : "failed",
            mismatches.Count, mismatches.Kept, roundTrip, message);
    }

    /// <summary>Serialize with the variant, check the output is strict JSON, deserialize it again, compare.</summary>
    private static (string Status, string Detail) CheckRoundTrip<T>(ISerializerAdapter adapter, Payload payload, T? actual)
    {
        try
        {
            var serialized = adapter.BindSerialize(actual)();
            var text = serialized is byte[] bytes ? Encoding.UTF8.GetString(bytes) : (string)serialized;
            using (JsonDocument.Parse(text)) { }
            var again = adapter.BindDeserialize<T>(payload with { Text = text, Utf8 = Encoding.UTF8.GetBytes(text) })();
            var mismatches = new MismatchList(keep: 5);
            StructuralComparer.Compare(again, JsonSerializer.SerializeToNode(actual), typeof(T), "", mismatches);
            return mismatches.Count == 0
                ? ("passed", "")
                : ("failed", $"round trip changed {mismatches.Count} field(s): {string.Join("; ", mismatches.Kept)}");
        }
        catch (Exception e)
        {
            return ("error", $"round trip threw {e.GetType().Name}: {e.Message}");
        }
    }

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
