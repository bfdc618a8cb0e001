using System.Diagnostics;
using JsonLab.Probes;

namespace JsonLab.Tests.Probes;

public class ProcStatusTests
{
    [Fact]
    public void The_allowed_cpus_are_the_processs_own_affinity()
    {
        if (!OperatingSystem.IsLinux())
            return;
        var listed = ProcStatus.CpusAllowed();

        Assert.NotNull(listed);
        // The affinity mask the runtime reports, expanded from the kernel's list syntax ("0-1", "1", "0,2-3").
        var mask = (long)Process.GetCurrentProcess().ProcessorAffinity;
        var cpus = listed!.Split(',').SelectMany(part =>
        {
            var bounds = part.Split('-').Select(int.Parse).ToArray();
            return Enumerable.Range(bounds[0], bounds[^1] - bounds[0] + 1);
        });
        Assert.Equal(mask, cpus.Aggregate(0L, (m, cpu) => m | (1L << cpu)));
    }

    [Fact]
    public void The_peak_resident_set_is_a_positive_number_of_bytes()
    {
        if (!OperatingSystem.IsLinux())
            return;
        Assert.True(ProcStatus.PeakResidentBytes() > 1024 * 1024);
        Assert.Null(ProcStatus.Field("NoSuchField"));
    }
}
