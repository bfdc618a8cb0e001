using JsonLab.Measurement;

namespace JsonLab.Tests.Measurement;

public class PrewarmTests
{
    [Fact]
    public void A_prewarm_with_a_quiet_window_stops_once_the_jit_has_compiled_nothing_for_that_long()
    {
        var calls = 0;
        var result = Prewarm.Run(() => ++calls, maxMs: 5000, quietMs: 100);

        Assert.Equal(Prewarm.JitQuietRule, result.Rule);
        Assert.InRange(result.Ms, 100, 4999);
        Assert.Equal(calls, result.Calls);
        Assert.NotNull(result.NsPerCallAtEnd);
    }

    [Fact]
    public void Silence_before_the_tiering_delay_is_not_quiet()
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        long compiled = 0;
        long? Counter() => clock.ElapsedMilliseconds < 20 ? ++compiled : compiled;

        var result = Prewarm.Run(() => new object(), maxMs: 400, quietMs: 50, jitCounter: Counter);

        Assert.Equal(Prewarm.CapRule, result.Rule);
        Assert.InRange(result.Ms, 400, 2000);
    }

    [Fact]
    public void A_prewarm_without_a_quiet_window_runs_for_its_fixed_time_and_times_its_last_quarter()
    {
        var result = Prewarm.Run(() => new object(), maxMs: 120);

        Assert.Equal(Prewarm.FixedRule, result.Rule);
        Assert.InRange(result.Ms, 120, 1000);
        Assert.True(result.NsPerCallAtEnd > 0);
    }

    [Fact]
    public void A_fixed_prewarm_whose_last_batch_runs_past_its_last_quarter_and_its_end_still_has_an_end_speed()
    {
        // batches of one 50 ms call end at about 50 and 100 ms: the second starts the last quarter (from 75 ms) and ends the
        // prewarm too, so that quarter holds no call (a preempted batch did this to a 120-ms prewarm in a test run)
        var result = Prewarm.Run(() => { Thread.Sleep(50); return null; }, maxMs: 100);

        Assert.Equal(Prewarm.FixedRule, result.Rule);
        Assert.NotNull(result.NsPerCallAtEnd);
        Assert.InRange(result.NsPerCallAtEnd!.Value, 40e6, 1e9);
    }

    [Fact]
    public void Without_a_jit_counter_a_steady_operation_stops_once_two_windows_run_at_the_same_speed()
    {
        // .NET Core 3.1 cannot count JIT compilations; an operation of constant cost settles once two consecutive windows
        // agree. On an idle machine that is the second and third window; on a loaded one (a CI machine running other jobs)
        // it can take many more, so the cap is far away: the test is about the rule, not about how quiet the machine is.
        var result = Prewarm.Run(() => new string('x', 64), maxMs: 60000, quietMs: 100, jitCounter: () => null);

        Assert.Equal(Prewarm.SpeedStableRule, result.Rule);
        Assert.True(result.Settled);
        Assert.InRange(result.Ms, 200, 59999);
        Assert.Null(result.Compilations);
        Assert.True(result.NsPerCallAtEnd > 0);
    }

    [Fact]
    public void Without_a_jit_counter_an_operation_that_keeps_changing_speed_runs_to_the_cap()
    {
        // Each call costs a fixed share of the time elapsed so far (0.2%), so a window's time per call grows with the window's
        // start: consecutive 50 ms windows within 400 ms differ by 12% or more, on a busy machine too. (A cost growing by a
        // fixed step per call was flaky: late windows differed by about 2%.)
        var clock = System.Diagnostics.Stopwatch.StartNew();
        var result = Prewarm.Run(() =>
        {
            var until = clock.Elapsed.TotalMilliseconds * 1.002;
            while (clock.Elapsed.TotalMilliseconds < until) { }
            return null;
        }, maxMs: 400, quietMs: 50, jitCounter: () => null);

        Assert.Equal(Prewarm.CapRule, result.Rule);
        Assert.False(result.Settled);
    }

    [Fact]
    public void A_slow_operation_does_not_overshoot_its_cap_by_more_than_one_call()
    {
        var result = Prewarm.Run(() => { Thread.Sleep(30); return null; }, maxMs: 100);

        Assert.InRange(result.Ms, 100, 170);
        Assert.InRange(result.Calls, 3, 6);
    }

    [Fact]
    public void Iterations_are_sized_from_the_warm_speed_only_when_the_job_leaves_the_count_open()
    {
        var job = new JobSettings(null, 1, 40, 50, null);

        var sized = job.WithInvocationsFrom(250.0);

        Assert.Equal(200_000, sized.InvocationCount);
        Assert.Equal(0, sized.InvocationCount % JobSettings.Unroll);
        Assert.Equal(208, job.WithInvocationsFrom(50e6 / 200).InvocationCount);  // 200 rounded up to a multiple of 16
        Assert.True(sized.InvocationsFromPrewarm);
        Assert.Equal(job, job.WithInvocationsFrom(null));
        Assert.Equal(7, (job with { InvocationCount = 7 }).WithInvocationsFrom(250.0).InvocationCount);
        Assert.Equal(1, job.WithInvocationsFrom(1e9).InvocationCount);
    }
}
