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
    public JobSettings WithInvocationsFrom(double? nsPerCall) =>
        InvocationCount is null && IterationTimeMs is { } ms && nsPerCall is > 0
            ? this with { InvocationCount = (int)Math.Clamp(Math.Round(ms * 1e6 / nsPerCall.Value), 1, int.MaxValue), InvocationsFromPrewarm = true }
            : this;

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
        if (InvocationCount is { } invocations) job = job.WithInvocationCount(invocations).WithUnrollFactor(1);
        return job;
    }
}
