using System.Reflection;
using BenchmarkDotNet.Environments;
#if BDN_BEFORE_015
using BenchmarkDotNet.Portability.Cpu;
#else
using Perfolizer.Models;
#endif

namespace JsonLab.Measurement;

/// <summary>
/// BenchmarkDotNet describes the host in every summary, and on Linux it starts subprocesses to do so: `cat
/// /proc/cpuinfo`, `lscpu` and `dotnet --version`. Measured here they add about 0.6 s to every lab process, after
/// the measurement, on the pinned CPU (strace of one `run`: 0.65 s from the first of them to exit). The lab records
/// these facts itself (env.json: runtime, ISA read back; the harness's environment.json: CPU, OS), so the two slow
/// values are filled in without a subprocess before BenchmarkDotNet starts. Nothing measured changes.
/// </summary>
public static class BdnHostInfo
{
    public static void AvoidSubprocesses()
    {
        var info = HostEnvironmentInfo.GetCurrent();
        Set(info, nameof(HostEnvironmentInfo.DotNetSdkVersion), new Lazy<string>(() => "not queried (in-process toolchain; runtime in env.json)"));
#if BDN_BEFORE_015
        // BenchmarkDotNet 0.14 (the version that runs on .NET Core 3.1, or one a build asks for) names it CpuInfo.
        Set(info, nameof(HostEnvironmentInfo.CpuInfo), new Lazy<CpuInfo>(() => new CpuInfo(ModelName(), null, null, Environment.ProcessorCount, null, null, null)));
#else
        Set(info, nameof(HostEnvironmentInfo.Cpu), new Lazy<CpuInfo>(() => new CpuInfo
        {
            ProcessorName = ModelName(),
            LogicalCoreCount = Environment.ProcessorCount,
        }));
#endif
    }

    private static void Set(object target, string property, object value) =>
        (target.GetType().GetProperty(property, BindingFlags.Public | BindingFlags.Instance)?.GetSetMethod(nonPublic: true)
         ?? throw new LabException($"BenchmarkDotNet's HostEnvironmentInfo has no settable {property}", "check the BenchmarkDotNet version pinned in JsonLab.csproj"))
        .Invoke(target, [value]);

    private static string ModelName() =>
        File.Exists("/proc/cpuinfo")
            ? File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "unknown"
            : "unknown";
}
