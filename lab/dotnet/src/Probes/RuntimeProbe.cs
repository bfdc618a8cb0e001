using System.Collections;
using System.Runtime;
using System.Runtime.InteropServices;
using JsonLab.Adapters;

namespace JsonLab.Probes;

/// <summary>What the `env` verb reports: runtime, effective ISA, GC mode and loaded library versions.</summary>
public static class RuntimeProbe
{
    /// <summary>Captures the environment of the current process.</summary>
    public static SortedDictionary<string, object?> Capture() => new()
    {
        ["schema_version"] = 1,
        ["lab"] = "dotnet",
        ["language"] = "C#",
        ["runtime"] = ".NET",
        ["runtime_version"] = Environment.Version.ToString(),
        ["runtime_description"] = RuntimeInformation.FrameworkDescription,
        ["os"] = RuntimeInformation.OSDescription,
        ["arch"] = RuntimeInformation.ProcessArchitecture.ToString().ToLowerInvariant(),
        ["isa"] = IsaReadback.Capture(),
        ["settings"] = RunSettingsReadback.Capture(),
        ["gc"] = new SortedDictionary<string, object>
        {
            ["server"] = GCSettings.IsServerGC,
            ["concurrent"] = AppContext.TryGetSwitch("System.GC.Concurrent", out var c) ? c : true,
            ["latency_mode"] = GCSettings.LatencyMode.ToString(),
        },
#if LEGACY_RUNTIME
        ["tiered_pgo"] = false, // dynamic PGO arrived in .NET 6; 3.1 ignores the runtimeconfig switch
        ["jit"] = true,
#else
        // Native AOT has no JIT, so no tiering and no PGO, whatever the runtimeconfig says.
        ["tiered_pgo"] = System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeCompiled
            && (AppContext.TryGetSwitch("System.Runtime.TieredPGO", out var pgo) ? pgo : true),
        ["jit"] = System.Runtime.CompilerServices.RuntimeFeature.IsDynamicCodeCompiled,
#endif
        ["processor_count"] = Environment.ProcessorCount,
        ["cpus_allowed"] = ProcStatus.CpusAllowed(),
        ["libraries"] = LoadedLibraries(),
        ["runtime_switches"] = RuntimeSwitches(),
    };

    private static SortedDictionary<string, string> LoadedLibraries()
    {
        var versions = new SortedDictionary<string, string>
        {
            ["BenchmarkDotNet"] = LibraryVersions.OfLoaded(typeof(BenchmarkDotNet.Running.BenchmarkRunner), "BenchmarkDotNet"),
            ["Bogus"] = LibraryVersions.OfLoaded(typeof(Bogus.Faker), "Bogus"),
        };
        foreach (var adapter in VariantRegistry.All.Where(a => a is not NotOnThisRuntimeAdapter))
            versions[adapter.Library] = adapter.LibraryVersion;
        return versions;
    }

    /// <summary>DOTNET_* / COMPlus_* variables seen by this process (the ISA switches among them).</summary>
    private static SortedDictionary<string, string> RuntimeSwitches()
    {
        var found = new SortedDictionary<string, string>();
        foreach (DictionaryEntry e in Environment.GetEnvironmentVariables())
        {
            var key = (string)e.Key;
            if (key.StartsWith("DOTNET_", StringComparison.Ordinal) || key.StartsWith("COMPlus_", StringComparison.Ordinal))
                found[key] = (string?)e.Value ?? "";
        }
        return found;
    }
}
