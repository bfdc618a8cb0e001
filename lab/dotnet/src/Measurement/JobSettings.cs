using BenchmarkDotNet.Jobs;
using BenchmarkDotNet.Toolchains.InProcess.Emit;
using Perfolizer.Horology;

namespace JsonLab.Measurement;

/// <summary>
/// The BenchmarkDotNet job a cell runs with. Unset values keep BenchmarkDotNet's own
/// automatic choice (the "full" profile sets none). The harness's profiles supply the values.
/// </summary>
public sealed record JobSettings(int? LaunchCount, int? WarmupCount, int? IterationCount, int? IterationTimeMs, int? InvocationCount)
{
    /// <summary>True when <see cref="InvocationCount"/> was derived from the prewarm's speed rather than given.</summary>
    public bool InvocationsFromPrewarm { get; init; }

    /// <summary>
    /// With an iteration time and no explicit invocation count, the invocation count that fills one iteration at the
    /// warm speed the prewarm measured; BenchmarkDotNet's pilot stage then has nothing left to find and is skipped.
    /// Without a prewarm speed the job is unchanged (BenchmarkDotNet pilots as usual).
    /// </summary>
    public JobSettings WithInvocationsFrom(double? nsPerCall)
    {
        if (InvocationCount is not null || IterationTimeMs is not { } ms || nsPerCall is not > 0)
            return this;
        var count = (long)Math.Round(ms * 1e6 / nsPerCall.Value);
        // BenchmarkDotNet needs the count to be a multiple of the unroll factor; unrolling keeps its loop's own cost
        // per call small (measured: 2.5 ns per call not unrolled, as much as a nanosecond-scale check itself).
        count = count >= Unroll ? (count + Unroll - 1) / Unroll * Unroll : Math.Max(count, 1);
        return this with { InvocationCount = (int)Math.Min(count, int.MaxValue / Unroll * Unroll), InvocationsFromPrewarm = true };
    }

    /// <summary>BenchmarkDotNet's default unroll factor, used when the lab sizes the iterations itself.</summary>
    public const int Unroll = 16;

    /// <summary>
    /// Builds the job. The in-process emit toolchain measures inside this process, so the ISA
    /// switches and CPU pinning the harness applied to the process are exactly what is timed,
    /// and no per-cell project build is needed.
    /// </summary>
    public Job ToJob()
    {
        var job = Job.Default.WithToolchain(InProcessEmitToolchain.Instance).WithId("lab");
        if (LaunchCount is { } launches) job = job.WithLaunchCount(launches);
        if (WarmupCount is { } warmups) job = job.WithWarmupCount(warmups);
        if (IterationCount is { } iterations) job = job.WithIterationCount(iterations);
        if (IterationTimeMs is { } ms) job = job.WithIterationTime(TimeInterval.FromMilliseconds(ms));
        if (InvocationCount is { } invocations)
            job = InvocationsFromPrewarm && invocations >= Unroll
                ? job.WithInvocationCount(invocations).WithUnrollFactor(Unroll)
                : job.WithInvocationCount(invocations).WithUnrollFactor(1);
        return job;
    }
}
