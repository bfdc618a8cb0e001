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

    /// <summary>VmHWM in bytes: the peak resident set (since the process started, or since the mark was last reset).</summary>
    public static long PeakResidentBytes() => Kilobytes("VmHWM") * 1024;

    /// <summary>VmRSS in bytes: the resident set now.</summary>
    public static long ResidentBytes() => Kilobytes("VmRSS") * 1024;

    private static long Kilobytes(string name)
    {
        var value = Field(name)
            ?? throw new LabException($"/proc/self/status has no {name} line", "resident sets are read from Linux's /proc; run the lab on Linux");
        return long.Parse(value.Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
    }
}
