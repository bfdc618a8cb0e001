using BenchmarkDotNet.Attributes;
using JsonLab.Escaping;

namespace JsonLab.Measurement;

/// <summary>
/// Write-up 002's escaping checks measured the way the PR's benchmark did: a [Benchmark] method that calls the check
/// directly on a prepared string. The general <see cref="CellBenchmark"/> calls through two delegates, which costs a
/// few nanoseconds per call: as much as the check itself on short strings (measured: 8.8 ns per call through that path
/// against 3 ns for the check), so those ratios would shrink toward 1.
/// </summary>
public class EscapingBenchmark
{
    /// <summary>The string each cell checks, by cell key; filled before BenchmarkRunner.Run.</summary>
    public static Dictionary<string, string> Texts { get; } = new();

    public static IEnumerable<string> CellNames() => Texts.Keys;

    [ParamsSource(nameof(CellNames))]
    public string Cell { get; set; } = "";

    private string _text = "";

    [GlobalSetup]
    public void Setup() => _text = Texts[Cell];

    /// <summary>"Current": the scalar allow-list loop.</summary>
    [Benchmark]
    public int Scalar() => NeedsEscaping.Scalar(_text);

    /// <summary>"Intrinsics": the SSE2 version.</summary>
    [Benchmark]
    public int Sse2() => NeedsEscaping.Sse2Vectorized(_text);
}
