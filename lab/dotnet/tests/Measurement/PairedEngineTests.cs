using JsonLab.Adapters;
using JsonLab.Measurement;

namespace JsonLab.Tests.Measurement;

public class PairedEngineTests
{
    private static object? _sink;

    /// <summary>A member whose every call allocates one 16-byte array (kept reachable, so it cannot live on the stack).</summary>
    private static BurstLoops Counting(int[] calls, int index) =>
        new(n =>
        {
            calls[index] += (int)n;
            for (long i = 0; i < n; i++)
                _sink = new byte[16];
            return _sink;
        }, n => null);

    [Fact]
    public void Every_round_runs_each_member_once_in_a_seeded_order_with_bursts_sized_from_the_warm_speed()
    {
        var calls = new int[3];
        var members = Enumerable.Range(0, 3).Select(i => Counting(calls, i)).ToList();
        var settings = new PairedEngine.Settings(BurstMs: 2, Rounds: 6, PrewarmMs: 50, PrewarmQuietMs: 10, Seed: 7);

        var result = PairedEngine.Run(members, settings);

        Assert.Equal(3, result.Members.Count);
        for (var round = 0; round < 6; round++)
            Assert.Equal([0, 1, 2], result.Members.Select(m => m.Positions[round]).OrderBy(p => p));
        foreach (var member in result.Members)
        {
            Assert.True(member.CallsPerBurst >= 1);
            Assert.Equal(6, member.NsPerCall.Length);
            Assert.Equal(member.RawNsPerCall.Select(r => r - member.OverheadNsPerCall), member.NsPerCall);
        }
        // the same seed repeats the order (a resumed run measures the same layout); another seed gives another one
        var again = PairedEngine.Run(members, settings);
        var other = PairedEngine.Run(members, settings with { Seed = 8 });
        Assert.Equal(result.Members.Select(m => m.Positions), again.Members.Select(m => m.Positions));
        Assert.NotEqual(result.Members.Select(m => string.Join(",", m.Positions)), other.Members.Select(m => string.Join(",", m.Positions)));
    }

    [Theory]
    [InlineData(0, 4)]
    [InlineData(3, 7)]
    [InlineData(100, 9)]  // never told to stop: the extra rounds end at their cap
    public void Extra_rounds_are_played_while_the_caller_has_not_said_stop_up_to_their_cap(int goOn, int played)
    {
        var calls = new int[2];
        var settings = new PairedEngine.Settings(BurstMs: 1, Rounds: 4, PrewarmMs: 20, PrewarmQuietMs: 5, Seed: 1);
        var asked = 0;

        var result = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], settings,
            extend: () => asked++ <= goOn, extendRounds: 5);  // its first call is the engine's own, before the rounds

        Assert.Equal(played, result.Rounds);
        foreach (var member in result.Members)
        {
            Assert.Equal(played, member.NsPerCall.Length);
            Assert.Equal(played, member.AllocatedBytesPerCall.Length);
            Assert.Equal(played, member.Positions.Length);
            Assert.All(member.RawNsPerCall, ns => Assert.True(ns > 0));
        }
        Assert.Equal(played + 1, result.RoundsCompilations!.Length);
        Assert.Equal(played > settings.Rounds, result.ExtraRoundsMs > 0);
        Assert.Equal(settings.Rounds, PairedEngine.Run([Counting(calls, 0)], settings).Rounds);  // no extend: the rounds asked
    }

    [Fact]
    public void The_compilations_after_the_warm_up_are_counted_at_each_round_and_at_the_end()
    {
        var calls = new int[2];
        var settings = new PairedEngine.Settings(BurstMs: 1, Rounds: 4, PrewarmMs: 20, PrewarmQuietMs: 5, Seed: 1);

        var counted = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], settings);
        // a JIT counter given by the caller (a test's, or none on .NET Core 3.1) counts nothing during the rounds
        var given = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], settings, () => 0);

        Assert.NotNull(counted.RoundsCompilations);
        Assert.Equal(settings.Rounds + 1, counted.RoundsCompilations!.Length);
        Assert.True(counted.RoundsCompilations[0] >= 0);
        Assert.Equal(counted.RoundsCompilations.OrderBy(c => c), counted.RoundsCompilations);
        Assert.Null(given.RoundsCompilations);
    }

    [Fact]
    public void The_joint_warm_up_lasts_until_the_jit_has_compiled_nothing_for_the_quiet_window()
    {
        var calls = new int[2];
        var clock = System.Diagnostics.Stopwatch.StartNew();
        long compiled = 0;
        // a JIT that keeps compiling for the first 200 ms, then stops
        long? Counter() => clock.ElapsedMilliseconds < 200 ? ++compiled : compiled;

        var result = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], new PairedEngine.Settings(1, 2, 3000, 100, 1), Counter);

        Assert.Equal(PairedEngine.JointQuietRule, result.JointRule);
        Assert.InRange(result.JointMs, 100, 3000);
        Assert.True(clock.ElapsedMilliseconds >= 300, "quiet for 100 ms after the last compilation at about 200 ms");
        Assert.All(result.Members, m => Assert.Equal(result.JointMs / 2, m.PrewarmMs, 6));
    }

    [Fact]
    public void A_jit_silent_from_the_start_does_not_end_the_warm_up_before_a_tier_up_was_seen()
    {
        var calls = new int[2];
        var clock = System.Diagnostics.Stopwatch.StartNew();
        long compiled = 0;
        // compilations only in the first 30 ms (the first pass's tier-0 code), then silence: a tier-up that never started
        long? Counter() => clock.ElapsedMilliseconds < 30 ? ++compiled : compiled;

        var result = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], new PairedEngine.Settings(1, 2, 300, 50, 1), Counter);

        Assert.True(Prewarm.TieringActive);
        Assert.Equal(Prewarm.CapRule, result.JointRule);
        Assert.True(result.JointMs >= 600, $"ran to the cap (2 members x 300 ms), not {result.JointMs:F0} ms");
    }

    [Fact]
    public void Allocations_are_counted_per_call_in_each_burst()
    {
        var calls = new int[1];
        var result = PairedEngine.Run([Counting(calls, 0)], new PairedEngine.Settings(1, 5, 100, 20, 1));

        // a 16-byte array is 40 bytes on a 64-bit runtime (header, method table, length, data); the median, so a burst in
        // which the runtime itself allocated on this thread (a tier-up) does not decide the test
        Assert.InRange(PairedEngine.Median(result.Members[0].AllocatedBytesPerCall), 39.9, 40.5);
    }

    [Fact]
    public void Escaping_checks_get_direct_loops_and_serializers_their_bound_operation()
    {
        var payload = TestPayloads.Dataset("escaping-8-none");
        var scalar = BurstLoops.For(VariantRegistry.Find("needs-escaping-scalar"), payload, OperationBinder.NeedsEscaping);
        var sse2 = BurstLoops.For(VariantRegistry.Find("needs-escaping-sse2"), payload, OperationBinder.NeedsEscaping);

        // 8 calls of "index of the first character to escape" (-1: none) sum to -8, and the overhead twin does nothing
        Assert.Equal(-8, scalar.Operation(8));
        Assert.Equal(-8, sse2.Operation(8));
        Assert.Equal(0, scalar.Overhead(8));
    }

    [Fact]
    public void Fresh_inputs_rebind_every_member_every_n_rounds_and_the_new_binding_is_what_is_timed()
    {
        var calls = new int[4];
        var rebinds = new int[2];
        // member i starts on counter i and moves to counter i + 2 once rebound (a fresh binding can be rebound again)
        BurstLoops Member(int i, int counter) => Counting(calls, counter) with { Fresh = () => { rebinds[i]++; return Member(i, i + 2); } };

        var result = PairedEngine.Run([Member(0, 0), Member(1, 1)], new PairedEngine.Settings(1, 7, 100, 20, 1, FreshInputRounds: 3));

        Assert.Equal([2, 2], rebinds); // before rounds 3 and 6 (round 0 keeps the input the warm-up used)
        Assert.Equal(2, result.FreshInputs);
        Assert.True(calls[2] > 0 && calls[3] > 0, "rounds after a rebinding time the fresh binding");
        var none = PairedEngine.Run([Member(0, 0)], new PairedEngine.Settings(1, 4, 100, 20, 1));
        Assert.Equal(0, none.FreshInputs);
        Assert.Equal(2, rebinds[0]);
    }

    [Fact]
    public void A_fresh_binding_works_on_a_new_copy_of_the_input()
    {
        var payload = TestPayloads.Dataset("simple-models-1000");
        var copy = payload.Copy();

        Assert.Equal(payload.Text, copy.Text);
        Assert.False(ReferenceEquals(payload.Text, copy.Text));
        Assert.Equal(payload.Utf8, copy.Utf8);
        Assert.False(ReferenceEquals(payload.Utf8, copy.Utf8));
        var loops = BurstLoops.For(VariantRegistry.Find("stj-default"), payload, "serialize");
        var fresh = loops.Fresh!();
        Assert.Equal(loops.Operation(1) is byte[] b ? b.Length : ((string)loops.Operation(1)!).Length,
            fresh.Operation(1) is byte[] c ? c.Length : ((string)fresh.Operation(1)!).Length);
    }

    [Fact]
    public void Bursts_are_sized_from_the_median_of_the_last_passes_so_one_slow_pass_does_not_halve_a_burst()
    {
        // seven passes at 100 ns per call and one that held a collection (250 ns): the size follows the 100 ns
        Assert.Equal(100, PairedEngine.WarmSpeed([100, 101, 250, 99, 100, 102, 98, 100]));
        Assert.Equal(100.5, PairedEngine.WarmSpeed([100, 101]));
        Assert.Equal(0, PairedEngine.WarmSpeed([]));
        Assert.Equal(200_000, PairedEngine.CallsFor(20, PairedEngine.WarmSpeed([100, 100, 300])));
    }

    [Fact]
    public void Members_of_one_block_run_back_to_back_in_every_round_in_a_seeded_order()
    {
        var calls = new int[5];
        var members = Enumerable.Range(0, 5).Select(i => Counting(calls, i)).ToList();
        int[] blocks = [1, 0, 1, 0, 1];  // two groups, their members interleaved in the order given
        var settings = new PairedEngine.Settings(BurstMs: 1, Rounds: 12, PrewarmMs: 20, PrewarmQuietMs: 5, Seed: 3, Blocks: blocks);

        var result = PairedEngine.Run(members, settings);

        var firsts = new HashSet<int>();
        for (var round = 0; round < 12; round++)
        {
            var byPosition = Enumerable.Range(0, 5).OrderBy(i => result.Members[i].Positions[round]).Select(i => blocks[i]).ToArray();
            Assert.True(byPosition is [0, 0, 1, 1, 1] or [1, 1, 1, 0, 0], $"round {round}: blocks in order {string.Join(",", byPosition)}");
            firsts.Add(byPosition[0]);
        }
        Assert.Equal(2, firsts.Count);  // either block may come first
        var again = PairedEngine.Run(members, settings);
        Assert.Equal(result.Members.Select(m => m.Positions), again.Members.Select(m => m.Positions));
    }

    [Fact]
    public void One_block_is_the_order_of_a_process_without_blocks()
    {
        var calls = new int[4];
        var members = Enumerable.Range(0, 4).Select(i => Counting(calls, i)).ToList();
        var settings = new PairedEngine.Settings(BurstMs: 1, Rounds: 8, PrewarmMs: 20, PrewarmQuietMs: 5, Seed: 11);

        var without = PairedEngine.Run(members, settings);
        var one = PairedEngine.Run(members, settings with { Blocks = [0, 0, 0, 0] });

        Assert.Equal(without.Members.Select(m => m.Positions), one.Members.Select(m => m.Positions));
    }

    [Fact]
    public void Blocks_that_do_not_name_every_member_are_refused_with_the_fix()
    {
        var error = Assert.Throws<LabException>(() => PairedEngine.BlockLayout([0, 1], 3));
        Assert.Contains("--member-blocks", error.Hint);
        var (flat, starts) = PairedEngine.BlockLayout([1, 1, 0], 3);
        Assert.Equal([2, 0, 1], flat);
        Assert.Equal([0, 1, 3], starts);
    }

    [Fact]
    public void Settings_out_of_range_are_refused_with_the_fix()
    {
        var error = Assert.Throws<LabException>(() => new PairedEngine.Settings(0, 1, 0, 0, 1).Validate());
        Assert.Contains("--burst-rounds", error.Hint);
    }

    [Fact]
    public void A_hand_over_comes_once_after_the_warm_up_and_before_the_overhead_and_the_rounds()
    {
        var calls = new int[2];
        var settings = new PairedEngine.Settings(BurstMs: 1, Rounds: 3, PrewarmMs: 20, PrewarmQuietMs: 5, Seed: 1);
        var atHandover = new List<int>();

        var result = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], settings, () => 0, () => atHandover.Add(calls.Sum()));
        var afterRun = calls.Sum();
        var without = PairedEngine.Run([Counting(calls, 0), Counting(calls, 1)], settings, () => 0);

        var handedOver = Assert.Single(atHandover);
        Assert.True(handedOver > 0);  // the warm-up ran before it
        Assert.True(afterRun > handedOver);  // the re-warm and the rounds after it
        Assert.NotNull(result.HandoverWaitMs);
        Assert.True(result.RewarmMs > 0);
        Assert.Null(without.HandoverWaitMs);
        Assert.Equal(0, without.RewarmMs);
    }
}
