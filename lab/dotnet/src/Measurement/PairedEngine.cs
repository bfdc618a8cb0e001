using System.Diagnostics;
using System.Runtime.CompilerServices;

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
/// fresh random order (seeded: a rerun repeats it; in a process of several groups, <see cref="Settings.Blocks"/>, each group's
/// members back to back and the groups in a fresh order too), each burst after a blocking collection (by default BenchmarkDotNet's
/// full one; <see cref="Settings.CollectGeneration"/>), so no member pays for another's garbage, and with the bytes the burst allocated read from the thread's allocation counter. With
/// <see cref="Settings.FreshInputRounds"/> each member rebinds to a fresh copy of its input every that many rounds:
/// where a member's speed depends on where its input happened to be placed (a serializer walking 1000 objects ran in
/// one of two speeds per process, 13% apart), the process then averages over placements instead of drawing one.
/// </summary>
public static class PairedEngine
{
    /// <param name="FreshInputRounds">Every this many rounds each member gets a fresh copy of its input (a new object graph
    /// to serialize, new text or bytes to parse), so a process samples several placements of its inputs in memory rather
    /// than keeping the one it happened to get; 0 keeps one input for the whole process.</param>
    /// <param name="CollectGeneration">The collection before each burst: <see cref="FullCollectionGeneration"/> (2, the
    /// default) is BenchmarkDotNet's between iterations (collect, run finalizers, collect again); 1 or 0 one blocking
    /// collection of that generation and the younger ones, which empties the young generations' budget for the burst but
    /// leaves older garbage for a later collection.</param>
    /// <param name="Blocks">A process of several groups (the paired-shared design): each member's block (its group), so
    /// that a round runs each block's members back to back, in a fresh order within the block, the blocks in a fresh order
    /// too; a ratio within a group is then still taken between bursts a few milliseconds apart. Null: one block.</param>
    public sealed record Settings(int BurstMs, int Rounds, int PrewarmMs, int PrewarmQuietMs, int Seed, int FreshInputRounds = 0,
        int CollectGeneration = FullCollectionGeneration, int[]? Blocks = null)
    {
        public Settings Validate() =>
            BurstMs > 0 && Rounds > 1 && PrewarmMs >= 0 && PrewarmQuietMs >= 0 && FreshInputRounds >= 0 && CollectGeneration is >= 0 and <= FullCollectionGeneration
                ? this
                : throw new LabException($"paired settings out of range: burst {BurstMs} ms, {Rounds} rounds, prewarm {PrewarmMs}/{PrewarmQuietMs} ms, fresh inputs every {FreshInputRounds} rounds, collection generation {CollectGeneration}",
                    "pass --burst-ms > 0, --burst-rounds ≥ 2, --fresh-input-rounds ≥ 0 and --burst-collect-generation 0, 1 or 2");
    }

    /// <summary>The generation of BenchmarkDotNet's full collection sequence, the default before each burst.</summary>
    public const int FullCollectionGeneration = 2;

    /// <summary>One member's measurements: per round (in round order) the time per call after the overhead, the raw time
    /// per call, the bytes allocated per call and the member's position in that round's order (0 = first).</summary>
    public sealed record MemberResult(
        long CallsPerBurst, double OverheadNsPerCall, double[] NsPerCall, double[] RawNsPerCall, double[] AllocatedBytesPerCall,
        int[] Positions, Prewarm.Result Prewarm, double PrewarmMs, long Gen0, long Gen1, long Gen2);

    /// <summary>The whole process's measurement: members in the order given, and where its time went.</summary>
    /// <param name="RoundsCompilations">Methods the JIT compiled after the joint warm-up: at the start of each round (in round
    /// order) and, last, at the end of the rounds, counted from the warm-up's end; null where the runtime has no counter
    /// (.NET Core 3.1: its JIT events are not listened to while anything is timed). A compilation during the rounds is code
    /// that changed while it was timed, or background JIT work sharing the CPU with a burst.</param>
    /// <param name="HandoverWaitMs">With a hand-over (<see cref="Run"/>'s <c>handover</c>): how long the warm process waited
    /// for it; <c>RewarmMs</c> the joint passes after it, on the CPU it was handed to.</param>
    /// <param name="Rounds">The rounds played: the settings' <c>Rounds</c>, and the extra rounds played while the caller
    /// had not said stop (<see cref="Run"/>'s <c>extend</c>); <c>ExtraRoundsMs</c> the wall time of those extra rounds.</param>
    public sealed record Result(IReadOnlyList<MemberResult> Members, long? JointCompilations, int JointPasses, double JointMs, string JointRule,
        double OverheadMs, double BurstsMs, double CollectMs, int FreshInputs = 0, double FreshInputsMs = 0, long[]? RoundsCompilations = null,
        double? HandoverWaitMs = null, double RewarmMs = 0, int Rounds = 0, double ExtraRoundsMs = 0);

    /// <summary>Joint passes after a hand-over, before the overhead twins and the rounds: the code is warm, the new CPU's
    /// caches are not.</summary>
    public const int RewarmPasses = 3;

    /// <summary>How the joint warm-up ended: the JIT quiet over whole passes, or (no JIT counter) every member at a stable speed.</summary>
    public const string JointQuietRule = "joint-jit-quiet", JointSpeedStableRule = "joint-speed-stable";

    /// <summary>Keeps each burst's last result reachable, so no loop can be elided.</summary>
    private static object? _sink;

    /// <param name="handover">Called once between the warm-up (bursts sized) and the overhead twins: a pipelined run
    /// warms a process on one CPU and hands it to the lab's CPU there (the paired verb's <c>--handoff 1</c>); then
    /// <see cref="RewarmPasses"/> joint passes refill the new CPU's caches. Null: no hand-over.</param>
    /// <param name="extend">Asked after the settings' rounds, before each further round (at most
    /// <paramref name="extendRounds"/> of them): true plays one more. A pipelined run keeps the lab's CPU sampling this
    /// process while the next one is not warm yet, rather than idle (the process is still one replicate: its ratio the
    /// median over all the rounds it played). Null: the settings' rounds only.</param>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    public static Result Run(IReadOnlyList<BurstLoops> members, Settings settings, Func<long?>? jitCounter = null, Action? handover = null,
        Func<bool>? extend = null, int extendRounds = 0)
    {
        settings.Validate();
        var (flat, blockStarts) = BlockLayout(settings.Blocks, members.Count);
        var blockOrder = new int[blockStarts.Length - 1];
        for (var b = 0; b < blockOrder.Length; b++)
            blockOrder[b] = b;
        // The first full collection runs the runtime's own gen-2 callbacks and finalizers (array-pool trimming and the
        // like) for the first time. Here, inside start-up's tiering delay, rather than in the middle of the warm-up, where
        // every method called for the first time holds back all tier-up by tiering's call-counting delay; the counters
        // each burst reads, and the rounds' own collection, likewise (a full one at the default, a full one and then the
        // chosen younger one otherwise).
        CollectBeforeBurst(FullCollectionGeneration);
        if (settings.CollectGeneration != FullCollectionGeneration)
            CollectBeforeBurst(settings.CollectGeneration);
        _sink = GC.GetAllocatedBytesForCurrentThread() + GC.CollectionCount(0) + GC.CollectionCount(1) + GC.CollectionCount(2);
        // (1) joint passes over all members, which also size the bursts
        var counting = jitCounter is null ? JitCounting.Start() : null;
        var counter = jitCounter ?? counting!.Count;
        var bySpeed = counter() is null;
        var clock = Stopwatch.StartNew();
        var nsPerCall = new double[members.Count];
        var recent = new double[members.Count, SizingPasses];  // each member's last passes' speeds, a ring
        var recentWrites = new int[members.Count];  // passes written since the JIT last changed code: slot = writes % size
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
                recent[i, recentWrites[i]++ % SizingPasses] = nsPerCall[i];
                windowNs[i] += ns;
                windowCalls[i] += calls[i];
                TimeBurst(members[i].Overhead, calls[i]);
            }
            passes++;
            var now = clock.Elapsed.TotalMilliseconds;
            var after = counter();
            if (after != before)
            {
                // a pass the JIT changed code in says little about the code that will be timed
                Array.Clear(recentWrites, 0, recentWrites.Length);
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
        var speeds = new double[SizingPasses];
        for (var i = 0; i < members.Count; i++)
        {
            var filled = Math.Min(recentWrites[i], SizingPasses);
            for (var k = 0; k < filled; k++)
                speeds[k] = recent[i, k];
            nsPerCall[i] = filled > 0 ? MedianOf(speeds, filled) : nsPerCall[i];
            calls[i] = CallsFor(settings.BurstMs, nsPerCall[i]);
        }
        double? handoverWaitMs = null;
        var rewarmMs = 0.0;
        if (handover is not null)
        {
            clock.Restart();
            handover();
            handoverWaitMs = clock.Elapsed.TotalMilliseconds;
            clock.Restart();
            for (var pass = 0; pass < RewarmPasses; pass++)
                for (var i = 0; i < members.Count; i++)
                {
                    var n = CallsFor(passMs, nsPerCall[i]);
                    TimeBurst(members[i].Operation, n);
                    TimeBurst(members[i].Overhead, n);
                }
            rewarmMs = clock.Elapsed.TotalMilliseconds;
        }
        // (2) overhead twins
        clock.Restart();
        var overhead = new double[members.Count];
        var twins = new double[5];
        for (var i = 0; i < members.Count; i++)
        {
            for (var k = 0; k < twins.Length; k++)
                twins[k] = TimeBurst(members[i].Overhead, calls[i]) / calls[i];
            overhead[i] = MedianOf(twins, twins.Length);
        }
        var overheadMs = clock.Elapsed.TotalMilliseconds;
        // (3) the rounds
        var raw = new double[members.Count][];
        var allocated = new double[members.Count][];
        var positions = new int[members.Count][];
        var order = new int[members.Count];
        var capacity = settings.Rounds + (extend is null ? 0 : Math.Max(0, extendRounds));
        for (var i = 0; i < members.Count; i++)
        {
            raw[i] = new double[capacity];
            allocated[i] = new double[capacity];
            positions[i] = new int[capacity];
        }
        var gcs = new long[members.Count, 3];
        var random = new SplitMix(settings.Seed);
        double burstsMs = 0, collectMs = 0, freshMs = 0;
        var loops = new BurstLoops[members.Count];
        for (var i = 0; i < loops.Length; i++)
            loops[i] = members[i];
        var fresh = 0;
        var compiledAfterWarmUp = jitCounter is null ? JitCounting.RuntimeCount() : null;
        var roundsCompilations = compiledAfterWarmUp is null ? null : new long[capacity + 1];
        long CompiledSinceWarmUp() => (JitCounting.RuntimeCount() ?? 0) - compiledAfterWarmUp!.Value;
        var played = 0;
        long extraStart = 0;
        if (extend is not null)
            _sink = extend();  // its first call compiles it: here, not between timed rounds
        for (var round = 0; round < capacity; round++)
        {
            if (round >= settings.Rounds && !extend!())
                break;
            if (round == settings.Rounds)
                extraStart = Stopwatch.GetTimestamp();
            played = round + 1;
            if (roundsCompilations is not null)
                roundsCompilations[round] = CompiledSinceWarmUp();
            if (settings.FreshInputRounds > 0 && round > 0 && round % settings.FreshInputRounds == 0)
            {
                var freshStart = Stopwatch.GetTimestamp();
                for (var i = 0; i < loops.Length; i++)
                    loops[i] = loops[i].Fresh?.Invoke() ?? loops[i];
                freshMs += (Stopwatch.GetTimestamp() - freshStart) * 1e3 / Stopwatch.Frequency;
                fresh++;
            }
            ShuffleBlocks(flat, blockStarts, blockOrder, order, ref random);
            for (var position = 0; position < order.Length; position++)
            {
                var m = order[position];
                var collectStart = Stopwatch.GetTimestamp();
                CollectBeforeBurst(settings.CollectGeneration);
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
        var extraMs = played > settings.Rounds ? (Stopwatch.GetTimestamp() - extraStart) * 1e3 / Stopwatch.Frequency : 0;
        if (roundsCompilations is not null)
        {
            roundsCompilations[played] = CompiledSinceWarmUp();
            Array.Resize(ref roundsCompilations, played + 1);
        }
        for (var i = 0; i < members.Count; i++)
        {
            Array.Resize(ref raw[i], played);
            Array.Resize(ref allocated[i], played);
            Array.Resize(ref positions[i], played);
        }
        // a member's warm-up: its share of the joint passes
        var results = Enumerable.Range(0, members.Count).Select(i => new MemberResult(
            calls[i], overhead[i], raw[i].Select(r => r - overhead[i]).ToArray(), raw[i], allocated[i], positions[i],
            new Prewarm.Result(0, jointMs / members.Count, jointCompilations, jointRule, nsPerCall[i]),
            jointMs / members.Count, gcs[i, 0], gcs[i, 1], gcs[i, 2])).ToList();
        return new Result(results, jointCompilations, passes, jointMs, jointRule, overheadMs, burstsMs, collectMs, fresh, freshMs, roundsCompilations,
            handoverWaitMs, rewarmMs, played, extraMs);
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
        var values = passes.ToArray();
        return values.Length == 0 ? 0 : MedianOf(values, values.Length);
    }

    /// <summary>The median of the first <paramref name="count"/> values (sorted in place): an insertion sort, since the
    /// engine calls this between its warm-up and its rounds, where a library sort called for the first time would be code
    /// compiled, and later tiered up, while bursts are timed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static double MedianOf(double[] values, int count)
    {
        for (var i = 1; i < count; i++)
        {
            var v = values[i];
            var j = i - 1;
            for (; j >= 0 && values[j] > v; j--)
                values[j + 1] = values[j];
            values[j + 1] = v;
        }
        var mid = count / 2;
        return count % 2 == 1 ? values[mid] : (values[mid - 1] + values[mid]) / 2;
    }

    /// <summary>Calls that fill about <paramref name="ms"/> at <paramref name="nsPerCall"/> (at least one).</summary>
    public static long CallsFor(double ms, double nsPerCall) =>
        nsPerCall > 0 ? Math.Max(1, (long)Math.Round(ms * 1e6 / nsPerCall)) : 1;

    /// <summary>The wall time of one burst, ns.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static double TimeBurst(BurstLoop loop, long calls)
    {
        var start = Stopwatch.GetTimestamp();
        _sink = loop(calls);
        var end = Stopwatch.GetTimestamp();
        return (end - start) * 1e9 / Stopwatch.Frequency;
    }

    /// <summary>What BenchmarkDotNet does between iterations: collect, run finalizers, collect what they freed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void FullCollection()
    {
        GC.Collect();
        GC.WaitForPendingFinalizers();
        GC.Collect();
    }

    /// <summary>The collection before a burst (<see cref="Settings.CollectGeneration"/>). The engine's first collection, before
    /// the warm-up, is always the full one, so whichever this is has run its code once before anything is timed.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void CollectBeforeBurst(int generation)
    {
        if (generation >= FullCollectionGeneration)
            FullCollection();
        else
            GC.Collect(generation, GCCollectionMode.Forced, blocking: true);
    }

    /// <summary>The members by block: their indices in block order (within a block in the order given), and where each
    /// block starts in that list (one more entry: the end). Refuses blocks that do not name every member.</summary>
    public static (int[] Flat, int[] BlockStarts) BlockLayout(int[]? blocks, int members)
    {
        if (blocks is null)
            return (Enumerable.Range(0, members).ToArray(), [0, members]);
        if (blocks.Length != members || blocks.Any(b => b < 0))
            throw new LabException($"{blocks.Length} member blocks given for {members} members",
                "pass --member-blocks with block sizes that add up to the number of --member options");
        var (flat, starts) = (new List<int>(), new List<int>());
        foreach (var id in blocks.Distinct().OrderBy(b => b))
        {
            starts.Add(flat.Count);
            flat.AddRange(Enumerable.Range(0, members).Where(i => blocks[i] == id));
        }
        starts.Add(members);
        return (flat.ToArray(), starts.ToArray());
    }

    /// <summary>A round's order: the blocks in a fresh order, each block's members (kept in <paramref name="flat"/>, shuffled
    /// in place round after round) back to back in a fresh order. With one block this is one shuffle of all members,
    /// drawing the same numbers as before blocks existed, so a paired process of one group keeps its seeded order.</summary>
    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void ShuffleBlocks(int[] flat, int[] blockStarts, int[] blockOrder, int[] order, ref SplitMix random)
    {
        Shuffle(blockOrder, 0, blockOrder.Length, ref random);
        var position = 0;
        for (var b = 0; b < blockOrder.Length; b++)
        {
            var (start, end) = (blockStarts[blockOrder[b]], blockStarts[blockOrder[b] + 1]);
            Shuffle(flat, start, end - start, ref random);
            for (var k = start; k < end; k++)
                order[position++] = flat[k];
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveOptimization)]
    private static void Shuffle(int[] items, int start, int length, ref SplitMix random)
    {
        for (var i = length - 1; i > 0; i--)
        {
            var j = random.Below(i + 1);
            (items[start + i], items[start + j]) = (items[start + j], items[start + i]);
        }
    }

    /// <summary>The rounds' seeded order (SplitMix64): the engine's own, so that no library code is called for the first
    /// time, or tiered up, between timed bursts.</summary>
    private struct SplitMix(int seed)
    {
        private ulong _state = (ulong)seed;

        [MethodImpl(MethodImplOptions.AggressiveOptimization)]
        public int Below(int bound)
        {
            var z = _state += 0x9E3779B97F4A7C15UL;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9UL;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EBUL;
            return (int)((z ^ (z >> 31)) % (ulong)bound);
        }
    }

    public static double Median(double[] values) => MedianOf((double[])values.Clone(), values.Length);
}
