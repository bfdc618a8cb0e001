using System.Diagnostics;

namespace JsonLab.Measurement;

/// <summary>
/// Warm-up before BenchmarkDotNet starts, until the JIT is quiet. On a process pinned to one CPU the tiered JIT
/// needs about a second to promote a serializer's hot methods to optimized (tier-1, PGO) code, because its
/// background compiler shares the CPU with the benchmark; a large library keeps compiling new methods for longer.
/// Measured here, processes warmed for a fixed 0.5 s were still tiering up during their measured iterations
/// (Newtonsoft.Json 1.4–1.5× slower than after 1 s). So the prewarm calls the operation until no method has been
/// compiled for <c>quietMs</c> (JitInfo.GetCompiledMethodCount counts every tier-up as a compilation), or until
/// <c>maxMs</c>; with no quiet window it warms for a fixed <c>maxMs</c>.
///
/// .NET Core 3.1 has no JIT counter (JitInfo arrived in .NET 6): there <see cref="JitCounting"/> counts the runtime's
/// JIT events while the prewarm runs. Where no count is to be had, the quiet window is judged by speed instead: the
/// prewarm stops when two consecutive windows of <c>quietMs</c> take the same time per call within 2% (a method that
/// tiers up changes the speed), or at <c>maxMs</c>.
///
/// The JIT's silence only counts once it has been heard after tiering's call-counting delay (<see cref="TieringDelayMs"/>):
/// a process whose background tier-up started late once looked quiet from the start. Of the default run of
/// 2026-11-24T15-09-49Z, one 10-cell process ended its joint warm-up after 353 ms and 10 compilations (the others: about
/// 2.1 s and 1,280), and one of its cells then ran 1.8x slower than in every other process. Where nothing tiers up (tiered
/// compilation off, Native AOT) the quiet window counts from the start.
/// </summary>
public static class Prewarm
{
    /// <summary>How a prewarm ended.</summary>
    public const string JitQuietRule = "jit-quiet", SpeedStableRule = "speed-stable", CapRule = "cap", FixedRule = "fixed";

    /// <summary>Two windows whose time per call differs by less than this count as the same speed.</summary>
    public const double StableSpeed = 0.02;

    /// <summary>Tiered compilation's call-counting delay (the runtime's default TC_CallCountingDelayMs; the lab sets
    /// DOTNET_TC_DelaySingleProcMultiplier=1 so a pinned process keeps it): no tier-up happens sooner.</summary>
    public const double TieringDelayMs = 100;

    /// <summary>True when this process compiles code at run time and tiers it up, so a warm-up should see tier-up compilations.</summary>
    public static bool TieringActive { get; } = System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeCompiled
        && Environment.GetEnvironmentVariable("DOTNET_TieredCompilation") != "0"
        && Environment.GetEnvironmentVariable("COMPlus_TieredCompilation") != "0"
        && (!AppContext.TryGetSwitch("System.Runtime.TieredCompilation", out var tiered) || tiered);

    /// <summary>Whether a JIT-quiet window may end a warm-up: once a compilation was seen after the tiering delay, or always
    /// where nothing tiers up.</summary>
    public static bool QuietCounts(bool tierUpSeen) => tierUpSeen || !TieringActive;

    /// <summary>What a prewarm did: calls, wall time, JIT compilations during it (null: the runtime cannot count them), how
    /// it ended (<see cref="JitQuietRule"/>, <see cref="SpeedStableRule"/>, <see cref="CapRule"/>, <see cref="FixedRule"/>),
    /// and the time per call over the final window (or the last quarter of a fixed prewarm; the last batch's where one batch
    /// ran past both the start of that window and the end, as a preempted or slow batch can).</summary>
    public sealed record Result(long Calls, double Ms, long? Compilations, string Rule, double? NsPerCallAtEnd)
    {
        public static readonly Result None = new(0, 0, 0, FixedRule, null);

        /// <summary>True when the prewarm stopped because the code had settled (by the JIT counter or by speed).</summary>
        public bool Settled => Rule is JitQuietRule or SpeedStableRule;
    }

    /// <summary>
    /// Calls the operation in batches that grow to about 1 ms, so the clock is read rarely for fast operations and
    /// a slow one (milliseconds per call) does not overshoot. <paramref name="jitCounter"/> replaces the runtime's JIT
    /// counter (tests: a runtime without one).
    /// </summary>
    public static Result Run(Func<object?> operation, int maxMs, int quietMs = 0, Func<long?>? jitCounter = null)
    {
        using var counting = jitCounter is null ? JitCounting.Start() : null;
        var counter = jitCounter ?? counting!.Count;
        var clock = Stopwatch.StartNew();
        var compiledAtStart = counter();
        var bySpeed = quietMs > 0 && compiledAtStart is null;
        var compiled = compiledAtStart;
        var tierUpSeen = false;
        double windowStartMs = 0;
        double? previousWindowNs = null;
        long calls = 0, windowCalls = 0, batch = 1;
        double? lastBatchNs = null;  // the last batch's time per call: the end speed when the final window holds no call
        var fixedTailFromMs = maxMs * 0.75;
        while (true)
        {
            var before = clock.Elapsed.TotalMilliseconds;
            for (var i = 0; i < batch; i++)
                GC.KeepAlive(operation());
            calls += batch;
            windowCalls += batch;
            var now = clock.Elapsed.TotalMilliseconds;
            lastBatchNs = (now - before) * 1e6 / batch;
            if (now - before < 0.5 && batch < 1 << 16)
                batch *= 2;
            if (bySpeed)
            {
                if (now - windowStartMs >= quietMs)
                {
                    var windowNs = (now - windowStartMs) * 1e6 / windowCalls;
                    if (previousWindowNs is { } previous && Math.Abs(windowNs / previous - 1) < StableSpeed)
                        return Done(SpeedStableRule);
                    previousWindowNs = windowNs;
                    windowStartMs = now;
                    windowCalls = 0;
                }
            }
            else if (quietMs > 0)
            {
                var count = counter();
                if (count != compiled)
                {
                    compiled = count;
                    windowStartMs = now;
                    windowCalls = 0;
                    tierUpSeen |= now >= TieringDelayMs;
                }
                else if (now - windowStartMs >= quietMs && QuietCounts(tierUpSeen))
                    return Done(JitQuietRule);
            }
            else if (windowStartMs == 0 && now >= fixedTailFromMs)
            {
                windowStartMs = now;
                windowCalls = 0;
            }
            if (now >= maxMs)
                return Done(quietMs > 0 ? CapRule : FixedRule);
        }

        Result Done(string rule)
        {
            var end = clock.Elapsed.TotalMilliseconds;
            return new Result(calls, end, counter() - compiledAtStart, rule,
                windowCalls > 0 && end > windowStartMs ? (end - windowStartMs) * 1e6 / windowCalls : previousWindowNs ?? lastBatchNs);
        }
    }
}
