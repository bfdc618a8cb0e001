using System.Runtime.InteropServices;
using JsonLab.Datasets;

namespace JsonLab.Measurement;

/// <summary>
/// The runtime-independent anchors (native/jsonlab_anchor.c, built beside the lab as libjsonlab_anchor.so): workloads of
/// the same machine code on every runtime, timed by the paired engine in bursts beside the cells with
/// <c>--native-anchors</c>, so a ratio across runtimes can be read as a ratio of ratios in which each process's machine
/// speed cancels. <c>scan</c> tokenizes a fixed 48 KiB JSON document (core and caches), <c>walk</c> chases pointers
/// through 64 MiB (memory). Each call is tens of microseconds; the overhead twin calls an empty native function, so the
/// runtime's cost of calling native code is subtracted with the loop's.
/// </summary>
public static class NativeAnchors
{
    private const string Library = "jsonlab_anchor";

    /// <summary>The file the build puts beside the lab.</summary>
    public const string FileName = "libjsonlab_anchor.so";

    /// <summary>The anchors, the reading anchor first (the scan: chosen by the A/A across two builds, docs/method.md);
    /// <c>--native-anchors N</c> times the first N.</summary>
    public static readonly IReadOnlyList<string> Names = ["scan", "walk"];

    [DllImport(Library, EntryPoint = "jsonlab_anchor_init")]
    private static extern int Init();

    [DllImport(Library, EntryPoint = "jsonlab_anchor_scan")]
    private static extern ulong Scan();

    [DllImport(Library, EntryPoint = "jsonlab_anchor_walk")]
    private static extern ulong Walk();

    [DllImport(Library, EntryPoint = "jsonlab_anchor_nothing")]
    private static extern ulong Nothing();

    /// <summary>The library's path and sha256 (hex), or why it cannot be loaded.</summary>
    public sealed record Availability(string? Path, string? Sha256, string? Unavailable);

    /// <summary>Loads the library and prepares its inputs; where the build could not make it, says why (never a stand-in).</summary>
    public static Availability Load()
    {
        var path = System.IO.Path.Combine(AppContext.BaseDirectory, FileName);
        if (!File.Exists(path))
            return new(null, null, $"{FileName} is not beside the lab: its build found no C compiler for this target (see the build log)");
        try
        {
            if (Init() != 0)
                return new(path, null, "the native anchors could not allocate their inputs");
        }
        catch (Exception e) when (e is DllNotFoundException or EntryPointNotFoundException or BadImageFormatException)
        {
            return new(path, null, $"{FileName} did not load: {e.Message}");
        }
        var sha = string.Concat(Payload.Sha256(File.ReadAllBytes(path)).Select(b => b.ToString("x2")));
        return new(path, sha, null);
    }

    /// <summary>The burst loops of one anchor (call <see cref="Load"/> first).</summary>
    public static BurstLoops Loops(string name) => name switch
    {
        "scan" => new(calls => Repeat(calls, true), calls => Repeat(calls, null)),
        "walk" => new(calls => Repeat(calls, false), calls => Repeat(calls, null)),
        _ => throw new LabException($"no native anchor '{name}'", $"the anchors are {string.Join(", ", Names)}"),
    };

    private static object? Repeat(long calls, bool? scan)
    {
        ulong sum = 0;
        for (long i = 0; i < calls; i++)
            sum += scan switch { true => Scan(), false => Walk(), null => Nothing() };
        return sum;
    }
}
