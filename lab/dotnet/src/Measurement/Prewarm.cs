using System.Diagnostics;

namespace JsonLab.Measurement;

/// <summary>
/// Warm-up by wall-clock time, before BenchmarkDotNet starts. On a process pinned to one CPU the tiered JIT
/// needs about a second to promote a serializer's hot methods to optimized (tier-1, PGO) code, because its
/// background compiler shares the CPU with the benchmark. BenchmarkDotNet's pilot stage would otherwise size
/// the invocation count on tier-0 speed, its "N warm-up iterations" would then last only a fraction of the
/// intended time, and processes would be measured at different stages of tier-up (seen here: the same cell
/// ranged 509–674 ns, the slowest processes being the shortest).
/// </summary>
public static class Prewarm
{
    /// <summary>Calls the operation in batches until <paramref name="milliseconds"/> have passed; returns the call count.</summary>
    public static long Run(Func<object?> operation, int milliseconds)
    {
        var clock = Stopwatch.StartNew();
        long calls = 0;
        while (clock.ElapsedMilliseconds < milliseconds)
        {
            for (var i = 0; i < 16; i++)
                GC.KeepAlive(operation());
            calls += 16;
        }
        return calls;
    }
}
