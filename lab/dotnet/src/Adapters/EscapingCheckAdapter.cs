using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>A check "index of the first character that needs escaping, or -1", over a span of UTF-16 text.</summary>
public delegate int EscapingCheck(ReadOnlySpan<char> value);

/// <summary>A variant that is not a serializer but one of write-up 002's escaping checks; its operation is needs-escaping.</summary>
public interface IEscapingCheckAdapter : ISerializerAdapter
{
    /// <summary>The method of Measurement/EscapingBenchmark.cs that measures this check directly.</summary>
    string BenchmarkMethod { get; }

    /// <summary>Index of the first character of <paramref name="value"/> that needs escaping, or -1.</summary>
    int FirstToEscape(ReadOnlySpan<char> value);
}

/// <summary>Write-up 002's NeedsEscaping implementations (Escaping/NeedsEscaping.cs), one variant each.</summary>
public sealed class EscapingCheckAdapter(string variant, string description, EscapingCheck check, string benchmarkMethod)
    : AdapterBase(variant, description, PayloadForm.String), IEscapingCheckAdapter
{
    public string BenchmarkMethod => benchmarkMethod;

    public override string Library => "System.Text.Json NeedsEscaping (corefx PR #41845, rebuilt in the lab)";
    public override string LibraryVersion => LibraryVersions.Of(typeof(EscapingCheckAdapter).Assembly);

    public int FirstToEscape(ReadOnlySpan<char> value) => check(value);

    public override Func<T?> BindDeserialize<T>(Payload payload) where T : default => throw NotASerializer();

    public override Func<object> BindSerialize<T>(T value) => throw NotASerializer();

    private LabException NotASerializer() =>
        new($"{Variant} is an escaping check, not a serializer", "use it with the operation needs-escaping on a dataset of model string");
}
