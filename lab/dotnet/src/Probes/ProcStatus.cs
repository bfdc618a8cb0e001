namespace JsonLab.Probes;

/// <summary>Fields of Linux's /proc/self/status: the peak resident set (VmHWM) and the CPUs the process may run on
/// (Cpus_allowed_list, which shows taskset's and a container's cpuset from inside).</summary>
public static class ProcStatus
{
    private const string Path = "/proc/self/status";

    /// <summary>The value after "name:", trimmed; null where the file or the field does not exist (not Linux).</summary>
    public static string? Field(string name)
    {
        if (!File.Exists(Path))
            return null;
        var prefix = name + ":";
        var line = File.ReadLines(Path).FirstOrDefault(l => l.StartsWith(prefix, StringComparison.Ordinal));
        return line?.Substring(prefix.Length).Trim();
    }

    /// <summary>The CPUs this process may run on, in the kernel's list syntax ("1", "0-3,6"); null off Linux.</summary>
    public static string? CpusAllowed() => Field("Cpus_allowed_list");

    /// <summary>VmHWM in bytes.</summary>
    public static long PeakResidentBytes()
    {
        var value = Field("VmHWM")
            ?? throw new LabException("/proc/self/status has no VmHWM line", "peak RSS is read from Linux's /proc; run the lab on Linux");
        return long.Parse(value.Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture) * 1024;
    }
}
