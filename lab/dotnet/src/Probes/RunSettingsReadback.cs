using System.Diagnostics.Tracing;
using System.Runtime;
using System.Runtime.CompilerServices;

namespace JsonLab.Probes;

/// <summary>
/// The runtime settings an experiment may ask for (lab.toml [run_settings]), as this very process runs with them: the
/// harness fails a cell whose readback contradicts what it asked for, as it does for ISA levels.
///
/// <list type="bullet">
/// <item><c>gc_server</c>: <see cref="GCSettings.IsServerGC"/>.</item>
/// <item><c>tiered_compilation</c>: the tier the JIT gave a method compiled here for the first time, read from the
/// runtime's own JIT event (MethodLoadVerbose, its MethodFlags' optimization-tier bits) through an in-process
/// EventListener: with tiering a first compilation is quick (tier 0), without it fully optimized. No API exposes the
/// DOTNET_TieredCompilation knob itself. A process without a JIT (Native AOT) reports false.</item>
/// </list>
/// </summary>
public static class RunSettingsReadback
{
    /// <summary>Setting name to value (null: this runtime could not tell).</summary>
    public static SortedDictionary<string, object?> Capture() => new()
    {
        ["gc_server"] = GCSettings.IsServerGC,
        ["tiered_compilation"] = Tiered.Value,
    };

    /// <summary>Read once per process: the probe method is compiled only once, and the knob cannot change.</summary>
    private static readonly Lazy<bool?> Tiered = new(TieredCompilation);

    /// <summary>How long to wait for the runtime to deliver the JIT event (it is dispatched on another thread).</summary>
    private const int EventWaitMs = 5000;

    // The optimization tier in MethodFlags (bits 7-9; the runtime's ETW::MethodLog OptimizationTier), as observed with
    // DOTNET_TieredCompilation=0 and =1 on every runtime of this lab (tests/run_settings_readback in the lab's tests).
    private const int TierShift = 7, TierMask = 0x7;
    private const int TierOptimized = 2;

    private static bool? TieredCompilation()
    {
        if (!RuntimeFeature.IsDynamicCodeCompiled)
            return false;
        using var listener = new JitTierListener(nameof(FirstCompiledHere));
        FirstCompiledHere(1);
        if (!listener.Seen.Wait(EventWaitMs))
            return null;
        return listener.Tier != TierOptimized;
    }

    /// <summary>A method nothing else calls: compiled for the first time by the call above, with the listener on.</summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int FirstCompiledHere(int x) => x * 3 + 1;

    /// <summary>Enables the runtime's JIT events (keyword 0x10, verbose) and keeps the tier of one method's load event.</summary>
    private sealed class JitTierListener : EventListener
    {
        private readonly string _method;
        public readonly ManualResetEventSlim Seen = new(false);
        public volatile int Tier = -1;

        public JitTierListener(string method) => _method = method;

        protected override void OnEventSourceCreated(EventSource source)
        {
            if (source.Name == "Microsoft-Windows-DotNETRuntime")
                EnableEvents(source, EventLevel.Verbose, (EventKeywords)0x10);
        }

        protected override void OnEventWritten(EventWrittenEventArgs e)
        {
            if (_method is null || e.EventName is null || !e.EventName.StartsWith("MethodLoadVerbose", StringComparison.Ordinal))
                return;
            var names = e.PayloadNames;
            if (names is null || e.Payload is null)
                return;
            var nameAt = names.IndexOf("MethodName");
            var flagsAt = names.IndexOf("MethodFlags");
            if (nameAt < 0 || flagsAt < 0 || (e.Payload[nameAt] as string) != _method)
                return;
            Tier = (int)((Convert.ToUInt32(e.Payload[flagsAt]) >> TierShift) & TierMask);
            Seen.Set();
        }
    }
}
