using System.Diagnostics;

namespace JsonLab.Measurement;

/// <summary>
/// The paired engine: several cells of one group measured in one process, alternating in short bursts, so every ratio
/// between two of them is taken between bursts a few milliseconds apart, under the same code layout, tier-up history and
/// machine state. The process is still the replicate (the harness takes one ratio per process: the median of its
/// per-round ratios); what pairing removes is the process-to-process and minute-to-minute drift that separate processes
/// of the two sides see differently.
///
/// Steps: (1) joint passes over all members, one short burst each, until a whole pass compiles nothing and the JIT has
/// been quiet for the quiet window (counted by <see cref="JitCounting"/>; where it cannot count: until every member's
/// time per call agrees within 2% between two consecutive windows of that length), capped at the prewarm time per member; the quiet only counts
/// once the JIT was heard after tiering's call-counting delay (<see cref="Prewarm.TieringDelayMs"/>). Members warm
/// together, never one after the other: with Dynamic PGO the code they share is profiled on whichever runs while it is
/// instrumented, and warming each member alone first left STJ 3.5-8% slower against Newtonsoft.Json than in processes of
/// its own (docs/method.md "Noise and replication"); together their tier-ups also overlap (a process of six members warmed in
/// 1.8 s instead of about 4). The median speed of each member's last passes sizes its burst to <c>BurstMs</c>
/// (<see cref="WarmSpeed"/>); (2) each member's overhead twin (the same loop calling nothing) is timed over five bursts of the member's size and its median subtracted, as
/// BenchmarkDotNet subtracts its overhead iterations; (3) <c>Rounds</c> rounds, each running every member once in a
/// fresh random order (seeded: a rerun repeats it), each burst after a full blocking collection, so no member pays for
/// another's garbage, and with the bytes the burst allocated read from the thread's allocation counter. With
/// <see cref="Settings.FreshInputRounds"/> each member rebinds to a fresh copy of its input every that many rounds:
/// where a member's speed depends on where its input happened to be placed (a serializer walking 1000 objects ran in
/// one of two speeds per process, 13% apart), the process then averages over placements instead of drawing one.
/// </summary>
public static class PairedEngine
{
    /// <param name="FreshInputRounds">Every this many rounds each member gets a fresh copy of its input (a new object graph
    /// to serialize, new text or bytes to parse), so a process samples several placements of its inputs in memory rather
    /// than keeping the one it happened to get; 0 keeps one input for the whole process.</param>
    public sealed record Settings(int BurstMs, int Rounds, int PrewarmMs, int PrewarmQuietMs, int Seed, int FreshInputRounds = 0)
    {
        public Settings Validate() =>
            BurstMs > 0 && Rounds > 1 && PrewarmMs >= 0 && PrewarmQuietMs >= 0 && FreshInputRounds >= 0
                ? this
                : throw new LabException($"paired settings out of range: burst {BurstMs} ms, {Rounds} rounds, prewarm {PrewarmMs}/{PrewarmQuietMs} ms, fresh inputs every {FreshInputRounds} rounds",
                    "pass --burst-ms > 0, --burst-rounds ≥ 2 and --fresh-input-rounds ≥ 0");
    }

    /// <summary>One member's measurements: per round (in round order) the time per call after the overhead, the raw time
    /// per call, the bytes allocated per call and the member's position in that round's order (0 = first).</summary>
    public sealed record MemberResult(
        long CallsPerBurst, double OverheadNsPerCall, double[] NsPerCall, double[] RawNsPerCall, double[] AllocatedBytesPerCall,
        int[] Positions, Prewarm.Result Prewarm, double PrewarmMs, long Gen0, long Gen1, long Gen2);

    /// <summary>The whole process's measurement: members in the order given, and where its time went.</summary>
    public sealed record Result(IReadOnlyList<MemberResult> Members, long? JointCompilations, int JointPasses, double JointMs, string JointRule,
        double OverheadMs, double BurstsMs, double CollectMs, int FreshInputs = 0, double FreshInputsMs = 0);

    /// <summary>How the joint warm-up ended: the JIT quiet over whole passes, or (no JIT counter) every member at a stable speed.</summary>
    public const string JointQuietRule = "joint-jit-quiet", JointSpeedStableRule = "joint-speed-stable";

    /// <summary>Keeps each burst's last result reachable, so no loop can be elided.</summary>
    private static object? _sink;

    public static Result Run(IReadOnlyList<BurstLoops> members, Settings settings, Func<long?>? jitCounter = null)
    {
        settings.Validate();
        // (1) joint passes over all members, which also size the bursts
        var counting = jitCounter is null ? JitCounting.Start() : null;
        var counter = jitCounter ?? counting!.Count;
        var bySpeed = counter() is null;
        var clock = Stopwatch.StartNew();
        var nsPerCall = new double[members.Count];
        var recent = members.Select(_ => new Queue<double>()).ToArray();
        var calls = new long[members.Count];
        var startCount = counter();
        var lastChange = 0.0;
        var tierUpSeen = false;
        var passes = 0;
        var jointRule = Prewarm.CapRule;
        var passMs = Math.Max(1, Math.Min(5, settings.BurstMs));
        // by speed: each member's time per call over windows of the quiet length, compared window to window
        var windowNs = new double[members.Count];
        var windowCalls = new long[members.Count];
        double[]? previousWindow = null;
        var windowStart = 0.0;
        var capMs = Math.Max((double)settings.PrewarmMs * members.Count, 2 * passMs * members.Count);
        while (true)
        {
            var before = counter();
            for (var i = 0; i < members.Count; i++)
            {
                calls[i] = CallsFor(passMs, nsPerCall[i]);
                var ns = TimeBurst(members[i].Operation, calls[i]);
                nsPerCall[i] = ns / calls[i];
                recent[i].Enqueue(nsPerCall[i]);
                if (recent[i].Count > SizingPasses)
                    recent[i].Dequeue();
                windowNs[i] += ns;
                windowCalls[i] += calls[i];
                TimeBurst(members[i].Overhead, calls[i]);
            }
            passes++;
            var now = clock.Elapsed.TotalMilliseconds;
            var after = counter();
            if (after != before)
            {
                foreach (var speeds in recent)
                    speeds.Clear();  // a pass the JIT changed code in says little about the code that will be timed
                lastChange = now;
                tierUpSeen |= now >= Prewarm.TieringDelayMs;
            }
            var quiet = false;
            if (bySpeed && now - windowStart >= Math.Max(settings.PrewarmQuietMs, 1))
            {
                var window = windowNs.Select((ns, i) => ns / windowCalls[i]).ToArray();
                quiet = previousWindow is not null && window.Select((w, i) => Math.Abs(w / previousWindow[i] - 1)).Max() < Prewarm.StableSpeed;
                previousWindow = window;
                Array.Clear(windowNs, 0, windowNs.Length);
                Array.Clear(windowCalls, 0, windowCalls.Length);
                windowStart = now;
            }
            else if (!bySpeed)
                quiet = after == before && now - lastChange >= settings.PrewarmQuietMs && Prewarm.QuietCounts(tierUpSeen);
            if (quiet || now >= capMs)
            {
                jointRule = !quiet ? Prewarm.CapRule : bySpeed ? JointSpeedStableRule : JointQuietRule;
                break;
            }
        }
        var jointMs = clock.Elapsed.TotalMilliseconds;
        var jointCompilations = counter() - startCount;
        counting?.Dispose();  // nothing listens to the JIT while the bursts are timed
        for (var i = 0; i < members.Count; i++)
        {
            nsPerCall[i] = recent[i].Count > 0 ? WarmSpeed(recent[i]) : nsPerCall[i];
            calls[i] = CallsFor(settings.BurstMs, nsPerCall[i]);
        }
        // (2) overhead twins
        clock.Restart();
        var overhead = new double[members.Count];
        for (var i = 0; i < members.Count; i++)
            overhead[i] = Median(Enumerable.Range(0, 5).Select(_ => TimeBurst(members[i].Overhead, calls[i]) / calls[i]).ToArray());
        var overheadMs = clock.Elapsed.TotalMilliseconds;
        // (3) the rounds
        var raw = members.Select(_ => new double[settings.Rounds]).ToArray();
        var allocated = members.Select(_ => new double[settings.Rounds]).ToArray();
        var positions = members.Select(_ => new int[settings.Rounds]).ToArray();
        var gcs = new long[members.Count, 3];
        var order = Enumerable.Range(0, members.Count).ToArray();
        var random = new Random(settings.Seed);
        double burstsMs = 0, collectMs = 0, freshMs = 0;
        var loops = members.ToArray();
        var fresh = 0;
        for (var round = 0; round < settings.Rounds; round++)
        {
            if (settings.FreshInputRounds > 0 && round > 0 && round % settings.FreshInputRounds == 0)
            {
                var freshStart = Stopwatch.GetTimestamp();
                for (var i = 0; i < loops.Length; i++)
                    loops[i] = loops[i].Fresh?.Invoke() ?? loops[i];
                freshMs += (Stopwatch.GetTimestamp() - freshStart) * 1e3 / Stopwatch.Frequency;
                fresh++;
            }
            Shuffle(order, random);
            for (var position = 0; position < order.Length; position++)
            {
                var m = order[position];
                var collectStart = Stopwatch.GetTimestamp();
                FullCollection();
                var start = Stopwatch.GetTimestamp();
                collectMs += (start - collectStart) * 1e3 / Stopwatch.Frequency;
                var bytes = GC.GetAllocatedBytesForCurrentThread();
                var (g0, g1, g2) = (GC.CollectionCount(0), GC.CollectionCount(1), GC.CollectionCount(2));
                var ns = TimeBurst(loops[m].Operation, calls[m]);
                allocated[m][round] = (GC.GetAllocatedBytesForCurrentThread() - bytes) / (double)calls[m];
                gcs[m, 0] += GC.CollectionCount(0) - g0;
                gcs[m, 1] += GC.CollectionCount(1) - g1;
                gcs[m, 2] += GC.CollectionCount(2) - g2;
                raw[m][round] = ns / calls[m];
                positions[m][round] = position;
                burstsMs += ns / 1e6;
            }
        }
        // a member's warm-up: its share of the joint passes
        var results = Enumerable.Range(0, members.Count).Select(i => new MemberResult(
            calls[i], overhead[i], raw[i].Select(r => r - overhead[i]).ToArray(), raw[i], allocated[i], positions[i],
            new Prewarm.Result(0, jointMs / members.Count, jointCompilations, jointRule, nsPerCall[i]),
            jointMs / members.Count, gcs[i, 0], gcs[i, 1], gcs[i, 2])).ToList();
        return new Result(results, jointCompilations, passes, jointMs, jointRule, overheadMs, burstsMs, collectMs, fresh, freshMs);
    }

    /// <summary>Warm-up passes whose speeds size a member's bursts (<see cref="WarmSpeed"/>).</summary>
    public const int SizingPasses = 8;

    /// <summary>The speed a member's bursts are sized at: the median ns per call over its last warm-up passes (those since the
    /// JIT last compiled anything, at most <see cref="SizingPasses"/>; the last pass alone when every pass compiled). One pass of
    /// 5 ms is a poor estimate on its own: a pass that holds a collection, or a moment of host contention, ran the same code
    /// up to 2.4x slower, and sizing from it gave two copies of one member bursts of 15 and 36 calls. Where a burst's calls
    /// allocate (write-up 004's 1000-model deserialization: 265 KB per call), the time per call grows with the burst's
    /// length (49 calls crossed the collection budget and ran 54% slower per call), so that sizing noise became ratio
    /// noise: the A/A copy spread 15% between processes, its per-process ratio following its calls-per-burst ratio
    /// (correlation 0.77, rounds probe rounds-1, 2026-11-24).</summary>
    public static double WarmSpeed(IEnumerable<double> passes)
    {
        var sorted = passes.OrderBy(v => v).ToArray();
        if (sorted.Length == 0)
            return 0;
        var mid = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }

    /// <summary>Calls that fill about <paramref name="ms"/> at <paramref name="nsPerCall"/> (at least one).</summary>
    public static long CallsFor(double ms, double nsPerCall) =>
        nsPerCall > 0 ? Math.Max(1, (long)Math.Round(ms * 1e6 / nsPerCall)) : 1;

    /// <summary>The wall time of one burst, ns.</summary>
    private static double TimeBurst(BurstLoop loop, long calls)
    {
        var start = Stopwatch.GetTimestamp();
        _sink = loop(calls);
        var end = Stopwatch.GetTimestamp();
        return (end - start) * 1e9 / Stopwatch.Frequency;
    }

    /// <summary>What BenchmarkDotNet does between iterations: collect, run finalizers, collect what they freed.</summary>
    private static void FullCollection()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    private static void Shuffle(int[] order, Random random)
    {
        for (var i = order.Length - 1; i > 0; i--)
        {
            var j = random.Next(i + 1);
            (order[i], order[j]) = (order[j], order[i]);
        }
    }

    public static double Median(double[] values)
    {
        var sorted = values.OrderBy(v => v).ToArray();
        var mid = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
    }
}
