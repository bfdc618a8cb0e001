using System.Diagnostics;

namespace JsonLab.Measurement;

/// <summary>
/// What the caller of a handed-over process says on its standard input: <c>moved</c> when it moved the process to the
/// lab's CPU before the process was warm (the lab's CPU was free: the process finishes warming there), <c>go</c> once
/// every thread of the process is on the lab's CPU and it may start its bursts, then <c>stop</c> (or the end of the
/// input) once the next process is warm, which ends the extra rounds a pipelined run plays meanwhile (the paired verb's
/// <c>--extend-rounds</c>). Read by a thread of its own, started as the verb starts: it blocks in a read and wakes only
/// for those lines, so it takes nothing from the bursts; the rounds read <see cref="Stopped"/>, a flag, between bursts.
/// Any first line other than <c>moved</c> or <c>go</c> (or none) also counts as stop.
/// </summary>
public sealed class HandoverChannel
{
    private readonly ManualResetEventSlim _first = new();
    private string? _firstLine;
    private volatile bool _stopped;
    private double _movedCpuMs = double.NaN;

    public HandoverChannel(TextReader input)
    {
        var reader = new Thread(() =>
        {
            try
            {
                string? line;
                while ((line = input.ReadLine()?.Trim()) == "moved")
                {
                    if (double.IsNaN(Volatile.Read(ref _movedCpuMs)))
                        Volatile.Write(ref _movedCpuMs, Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds);
                }
                _firstLine = line;
                _first.Set();
                if (_firstLine == "go")
                {
                    while ((line = input.ReadLine()) is not null && line.Trim() != "stop")
                    {
                    }
                }
            }
            catch (IOException)
            {
                // the caller's pipe went away: nothing more will be said
            }
            finally
            {
                _stopped = true;
                _first.Set();
            }
        })
        { IsBackground = true, Name = "jsonlab-handover" };
        reader.Start();
    }

    /// <summary>True once the caller said stop or closed the input (or its first line was not go).</summary>
    public bool Stopped => _stopped;

    /// <summary>The CPU time the process had used when its caller said <c>moved</c> (what it used on the warm CPU);
    /// null when it was not moved before it was warm.</summary>
    public double? MovedCpuMs => Volatile.Read(ref _movedCpuMs) is var ms && double.IsNaN(ms) ? null : ms;

    /// <summary>Waits for the caller's first line after any <c>moved</c>: <c>go</c>, anything else, or null at the end
    /// of the input.</summary>
    public string? AwaitFirstLine()
    {
        _first.Wait();
        return _firstLine;
    }
}
