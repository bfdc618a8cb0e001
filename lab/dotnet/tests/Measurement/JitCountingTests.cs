using System.Diagnostics;
using System.Runtime.CompilerServices;
using JsonLab.Measurement;

namespace JsonLab.Tests.Measurement;

public class JitCountingTests
{
    private struct First { }
    private struct Second { }

    /// <summary>A method body the JIT has not compiled yet for each new value type.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int Fresh<T>() where T : struct => Unsafe.SizeOf<T>() + typeof(T).Name.Length;

    private static long? CountOnceSettled(JitCounting counting, long atLeast)
    {
        var clock = Stopwatch.StartNew();
        while (clock.ElapsedMilliseconds < 10_000 && (counting.Count() ?? 0) < atLeast)
            Thread.Sleep(10);
        return counting.Count();
    }

    [Fact]
    public void Where_the_runtime_counts_compilations_its_counter_is_used()
    {
        using var counting = JitCounting.Start();

        Assert.Equal(JitCounting.RuntimeCounter, counting.Source);
        Assert.Equal(JitCounting.RuntimeCount(), counting.Count());
    }

    [Fact]
    public void The_runtimes_jit_events_count_a_method_compiled_while_they_are_heard_and_nothing_after()
    {
        long? heard;
        using (var counting = JitCounting.Start(events: true))
        {
            Assert.Equal(JitCounting.RuntimeEvents, counting.Source);
            var before = CountOnceSettled(counting, 0) ?? 0;
            Assert.True(Fresh<First>() > 0);
            heard = CountOnceSettled(counting, before + 1);
            Assert.True(heard > before, $"no JIT event within 10 s of a fresh compilation ({before} before, {heard} after)");
            counting.Dispose();
            Thread.Sleep(200);
            heard = counting.Count();
            Assert.True(Fresh<Second>() > 0);
            Thread.Sleep(200);
            Assert.Equal(heard, counting.Count());
        }
    }
}
