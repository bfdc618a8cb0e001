namespace JsonLab.Verification;

/// <summary>Outcome of verifying one variant on one dataset (written as verification.json).</summary>
/// <param name="Variant">Variant name.</param>
/// <param name="Dataset">Dataset name.</param>
/// <param name="ModelType">CLR type the variant bound to.</param>
/// <param name="Status">"passed" or "failed".</param>
/// <param name="MismatchCount">Fields whose deserialized value differs from the dataset.</param>
/// <param name="Mismatches">The first differing fields, "path: expected X, got Y".</param>
/// <param name="RoundTrip">"passed", "failed" or "error": serialize then deserialize gives the same object; "skipped" for serialize cells.</param>
/// <param name="Message">One line for reports.</param>
/// <param name="OperationError">Set when the measured operation itself throws: the cell cannot be timed.</param>
/// <param name="PayloadBytes">The JSON text the operation reads (deserialize: the dataset's UTF-8 text without a byte order
/// mark) or writes (serialize: the output as UTF-8), in bytes: what a throughput in MB/s divides by the time; 0 when not
/// known (a failed check). Not nullable: the Native AOT build has no serializer code for a nullable long.</param>
public sealed record VerificationResult(
    string Variant,
    string Dataset,
    string ModelType,
    string Status,
    int MismatchCount,
    IReadOnlyList<string> Mismatches,
    string RoundTrip,
    string Message,
    string? OperationError = null,
    long PayloadBytes = 0);
