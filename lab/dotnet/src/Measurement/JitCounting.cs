using System.Diagnostics.Tracing;

namespace JsonLab.Measurement;

/// <summary>
/// Counts the methods the JIT compiles (every tier counts) while a warm-up runs. .NET 6+ has the counter built in
/// (JitInfo.GetCompiledMethodCount). .NET Core 3.1 has none: there the count comes from the runtime's own JIT events
/// (the Microsoft-Windows-DotNETRuntime event source, JIT keyword, read in-process by an EventListener over EventPipe),
/// one MethodLoad event per compiled method body, tier-ups included. Without it a 3.1 warm-up could only judge the JIT
/// by speed, which on a noisy host rarely agreed within 2% twice for six members: in run probe-check-b-2026-12-01, 5 of
/// 6 processes of write-up 000's 3.1.3 group warmed for the whole 18-s cap (8.0's processes of the same group: 1.9 s).
///
/// The listener costs CPU only while it is open (the runtime writes an event per compiled method; a thread of the
/// listener reads them), so a warm-up opens it and disposes it before anything is timed. Events reach the listener a
/// little after the compilation ended; a warm-up's quiet window starts again at the event, which errs toward longer.
/// </summary>
public sealed class JitCounting : IDisposable
{
    /// <summary>Where a count comes from: the runtime's counter, its JIT events, or nothing (the count is null).</summary>
    public const string RuntimeCounter = "jit-info", RuntimeEvents = "jit-events", NoCounter = "none";

    private readonly JitEventListener? _listener;

    private JitCounting(string source, JitEventListener? listener)
    {
        Source = source;
        _listener = listener;
    }

    /// <summary>Which of <see cref="RuntimeCounter"/>, <see cref="RuntimeEvents"/> and <see cref="NoCounter"/> counts.</summary>
    public string Source { get; }

    /// <summary>Starts counting: the runtime's counter where there is one, else (or when <paramref name="events"/>) its JIT
    /// events; <see cref="NoCounter"/> where neither is available (the events refused: Native AOT has no JIT to count).</summary>
    public static JitCounting Start(bool events = false)
    {
        if (!events && RuntimeCount() is not null)
            return new JitCounting(RuntimeCounter, null);
        if (!System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeCompiled)
            return new JitCounting(NoCounter, null);
        try
        {
            return new JitCounting(RuntimeEvents, new JitEventListener());
        }
        catch (Exception error) when (error is NotSupportedException or InvalidOperationException or PlatformNotSupportedException)
        {
            return new JitCounting(NoCounter, null);
        }
    }

    /// <summary>Methods compiled so far: the runtime's own total, or the events counted since <see cref="Start"/>.</summary>
    public long? Count() => Source switch
    {
        RuntimeCounter => RuntimeCount(),
        RuntimeEvents => _listener!.Compiled,
        _ => null,
    };

    public void Dispose() => _listener?.Dispose();

    /// <summary>The runtime's own count of compiled methods, or null where the runtime cannot say (.NET Core 3.1).</summary>
    public static long? RuntimeCount() =>
#if LEGACY_RUNTIME
        null;
#else
        System.Runtime.JitInfo.GetCompiledMethodCount();
#endif

    /// <summary>Counts the runtime's MethodLoad events (ids 141 and 143, <c>MethodLoad_V1</c> and
    /// <c>MethodLoadVerbose_V1</c>) with the JIT keyword on.</summary>
    private sealed class JitEventListener : EventListener
    {
        private const string RuntimeSource = "Microsoft-Windows-DotNETRuntime";
        private const EventKeywords JitKeyword = (EventKeywords)0x10;
        private const int MethodLoad = 141, MethodLoadVerbose = 143;

        private long _compiled;

        public long Compiled => Interlocked.Read(ref _compiled);

        protected override void OnEventSourceCreated(EventSource source)
        {
            if (source.Name == RuntimeSource)
                EnableEvents(source, EventLevel.Verbose, JitKeyword);
        }

        protected override void OnEventWritten(EventWrittenEventArgs e)
        {
            if (e.EventId is MethodLoad or MethodLoadVerbose)
                Interlocked.Increment(ref _compiled);
        }
    }
}
