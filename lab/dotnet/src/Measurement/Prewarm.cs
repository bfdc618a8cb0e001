using System.Diagnostics;

namespace JsonLab.Measurement;

/// <summary>
/// Warm-up before BenchmarkDotNet starts, until the JIT is quiet. On a process pinned to one CPU the tiered JIT
/// needs about a second to promote a serializer's hot methods to optimized (tier-1, PGO) code, because its
/// background compiler shares the CPU with the benchmark; a large library keeps compiling new methods for longer.
/// Measured here, processes warmed for a fixed 0.5 s were still tiering up during their measured iterations
/// (Newtonsoft.Json 1.4–1.5× slower than after 1 s). So the prewarm calls the operation until no method has been
/// compiled for <c>quietMs</c> (JitInfo.GetCompiledMethodCount counts every tier-up as a compilation), or until
/// <c>maxMs</c>; with no quiet window it warms for a fixed <c>maxMs</c>. .NET Core 3.1 has no JIT counter
/// (JitInfo arrived in .NET 6): there the prewarm always runs its fixed <c>maxMs</c> and says so.
/// </summary>
public static class Prewarm
{
    /// <summary>What a prewarm did: calls, wall time, JIT compilations during it, whether the JIT went quiet, and the
    /// time per call over the final quiet window (or the last quarter of a fixed prewarm).</summary>
    public sealed record Result(long Calls, double Ms, long? Compilations, bool JitQuiet, double? NsPerCallAtEnd)
    {
        public static readonly Result None = new(0, 0, 0, false, null);
    }

    /// <summary>
    /// Calls the operation in batches that grow to about 1 ms, so the clock is read rarely for fast operations and
    /// a slow one (milliseconds per call) does not overshoot.
    /// </summary>
    public static Result Run(Func<object?> operation, int maxMs, int quietMs = 0)
    {
        var clock = Stopwatch.StartNew();
        var compiledAtStart = CompiledMethodCount();
        quietMs = compiledAtStart is null ? 0 : quietMs;
        var compiled = compiledAtStart;
        double windowStartMs = 0;
        long calls = 0, windowCalls = 0, batch = 1;
        var fixedTailFromMs = maxMs * 0.75;
        while (true)
        {
            var before = clock.Elapsed.TotalMilliseconds;
            for (var i = 0; i < batch; i++)
                GC.KeepAlive(operation());
            calls += batch;
            windowCalls += batch;
            var now = clock.Elapsed.TotalMilliseconds;
            if (now - before < 0.5 && batch < 1 << 16)
                batch *= 2;
            if (quietMs > 0)
            {
                var count = CompiledMethodCount();
                if (count != compiled)
                {
                    compiled = count;
                    windowStartMs = now;
                    windowCalls = 0;
                }
                else if (now - windowStartMs >= quietMs)
                    return Done(true);
            }
            else if (windowStartMs == 0 && now >= fixedTailFromMs)
            {
                windowStartMs = now;
                windowCalls = 0;
            }
            if (now >= maxMs)
                return Done(false);
        }

        Result Done(bool quiet)
        {
            var end = clock.Elapsed.TotalMilliseconds;
            return new Result(calls, end, CompiledMethodCount() - compiledAtStart, quiet,
                windowCalls > 0 && end > windowStartMs ? (end - windowStartMs) * 1e6 / windowCalls : null);
        }
    }

    /// <summary>Methods the JIT has compiled in this process so far (every tier counts), or null where the runtime cannot say.</summary>
    private static long? CompiledMethodCount() =>
#if LEGACY_RUNTIME
        null;
#else
        System.Runtime.JitInfo.GetCompiledMethodCount();
#endif
}
