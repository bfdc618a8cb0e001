namespace JsonLab.Measurement;

/// <summary>
/// What the caller of a handed-over process says on its standard input: <c>go</c> once every thread of the process is
/// on the lab's CPU, then <c>stop</c> (or the end of the input) once the next process is warm, which ends the extra
/// rounds a pipelined run plays meanwhile (the paired verb's <c>--extend-rounds</c>). Read by a thread of its own,
/// started while the process warms: it blocks in a read and wakes only for those lines, so it takes nothing from the
/// bursts; the rounds read <see cref="Stopped"/>, a flag, between bursts. Any first line other than <c>go</c> (or none)
/// also counts as stop.
/// </summary>
public sealed class HandoverChannel
{
    private readonly ManualResetEventSlim _first = new();
    private string? _firstLine;
    private volatile bool _stopped;

    public HandoverChannel(TextReader input)
    {
        var reader = new Thread(() =>
        {
            try
            {
                _firstLine = input.ReadLine()?.Trim();
                _first.Set();
                if (_firstLine == "go")
                {
                    string? line;
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

    /// <summary>Waits for the caller's first line: <c>go</c>, anything else, or null at the end of the input.</summary>
    public string? AwaitFirstLine()
    {
        _first.Wait();
        return _firstLine;
    }
}
