using BenchmarkDotNet.Attributes;

namespace JsonLab.Measurement;

/// <summary>
/// The one benchmark class: each value of its Cell parameter is one cell the run verb bound before starting
/// BenchmarkDotNet in-process. The run verb runs BenchmarkDotNet once per cell (filtered to that value), so each
/// cell has its own job and its own raw JSON; one process can measure several cells of one variant in a row.
/// </summary>
public class CellBenchmark
{
    /// <summary>Bound operations by cell key; filled before BenchmarkRunner.Run.</summary>
    public static Dictionary<string, Func<object?>> Bound { get; } = new();

    /// <summary>Values for <see cref="Cell"/>: the bound cells' keys.</summary>
    public static IEnumerable<string> CellNames() => Bound.Keys;

    /// <summary>The cell's key ("cell-0", "cell-1", …: short, so BenchmarkDotNet prints it whole).</summary>
    [ParamsSource(nameof(CellNames))]
    public string Cell { get; set; } = "";

    private Func<object?> _operation = () => null;

    [GlobalSetup]
    public void Setup() =>
        _operation = Bound.TryGetValue(Cell, out var op)
            ? op
            : throw new InvalidOperationException($"no operation bound for cell '{Cell}': CellBenchmark is started by the run verb only");

    /// <summary>One call of the bound library operation; the result is returned so it cannot be optimized away.</summary>
    [Benchmark]
    public object? Operation() => _operation();
}
