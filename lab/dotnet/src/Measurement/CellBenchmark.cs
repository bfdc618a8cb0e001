using BenchmarkDotNet.Attributes;

namespace JsonLab.Measurement;

/// <summary>
/// The one benchmark class: it measures whichever operation the run verb bound before starting
/// BenchmarkDotNet in-process. The cell name is a parameter so the raw JSON names its cell.
/// </summary>
public class CellBenchmark
{
    /// <summary>Bound operation for the current cell; set once before BenchmarkRunner.Run.</summary>
    public static Func<object?>? Bound { get; set; }

    /// <summary>Cell name ("variant/dataset/operation") recorded in the raw results.</summary>
    public static string CurrentCell { get; set; } = "";

    /// <summary>Values for <see cref="Cell"/>: exactly the current cell.</summary>
    public static IEnumerable<string> CellNames() => [CurrentCell];

    [ParamsSource(nameof(CellNames))]
    public string Cell { get; set; } = "";

    private Func<object?> _operation = () => null;

    [GlobalSetup]
    public void Setup() =>
        _operation = Bound ?? throw new InvalidOperationException("no operation bound: CellBenchmark is started by the run verb only");

    /// <summary>One call of the bound library operation; the result is returned so it cannot be optimized away.</summary>
    [Benchmark]
    public object? Operation() => _operation();
}
