using System.Diagnostics;
using JsonLab.Measurement;
using JsonLab.Probes;
using JsonLab.Verification;

namespace JsonLab.Verbs;

/// <summary>
/// `shot`: the single-shot method of the widely cited cross-language benchmarks, one cell per fresh process. In order:
/// capture the environment; read the input into memory; warm up with --warmup-calls calls of the same variant and
/// operation on the small --warmup-dataset (none without one); reset the kernel's peak-RSS mark and read the resident set;
/// time each of --calls calls (default 1) on the real input, alone; read the peak resident set of that region; then, after
/// everything timed, verify the variant on the input. Not timed: process start, runtime start, reading the file, the
/// warm-up, the verification. Files in --out: env.json, samples.json (the lab contract's format, one iteration per timed
/// call, and a `single_shot` object with the warm-up, the resident sets and what was timed), verification.json,
/// cell.json, process.json.
/// </summary>
public static class ShotVerb
{
    public const string EngineName = "jsonlab single-shot", EngineVersion = "1";

    public static int Execute(CliArgs args)
    {
        var mainEntered = DateTime.Now;
        var outDir = Path.GetFullPath(args.Required("out"));
        Directory.CreateDirectory(outDir);
        var env = RuntimeProbe.Capture();
        LabJson.WriteFile(Path.Combine(outDir, "env.json"), env);
        var calls = args.OptionalInt("calls") ?? 1;
        var warmupCalls = args.OptionalInt("warmup-calls") ?? 0;
        var warmupDataset = args.Optional("warmup-dataset", "");
        if (calls < 1 || warmupCalls < 0)
            throw new LabException($"--calls {calls} --warmup-calls {warmupCalls}", "--calls must be 1 or more, --warmup-calls 0 or more");
        if (warmupCalls > 0 && warmupDataset.Length == 0)
            throw new LabException("--warmup-calls needs --warmup-dataset", "name a small dataset of the same model to warm up on");

        var clock = Stopwatch.StartNew();
        var request = CellRequest.From(args);
        var loadMs = clock.Elapsed.TotalMilliseconds;

        clock.Restart();
        if (warmupCalls > 0)
        {
            var small = CellRequest.Load(request.Adapter, args.Required("datasets"), warmupDataset, request.Operation, outDir);
            var warm = Bind(small);
            for (var i = 0; i < warmupCalls; i++)
                Keep(warm());
        }
        var warmupMs = clock.Elapsed.TotalMilliseconds;

        var operation = Bind(request);
        var peakReset = PeakReset();
        var rssBefore = ProcStatus.ResidentBytes();
        var allocatedBefore = GC.GetAllocatedBytesForCurrentThread();
        var times = new double[calls];
        for (var i = 0; i < calls; i++)
        {
            var start = Stopwatch.GetTimestamp();
            var result = operation();
            times[i] = (Stopwatch.GetTimestamp() - start) * (1e9 / Stopwatch.Frequency);
            Keep(result);
        }
        var allocated = GC.GetAllocatedBytesForCurrentThread() - allocatedBefore;
        var peak = ProcStatus.PeakResidentBytes();
        Console.Error.WriteLine($"{request.Name}: {calls} timed call(s), first {times[0] / 1e6:F3} ms, after {warmupCalls} warm-up call(s) on '{warmupDataset}' ({warmupMs:F0} ms); "
                                + $"resident {rssBefore / 1048576.0:F1} MiB before, peak {peak / 1048576.0:F1} MiB {(peakReset ? "during the calls" : "of the whole process (the kernel refused the reset)")}");

        clock.Restart();
        var verification = Verifier.Verify(request.Adapter, request.Payload, request.Operation);
        var verifyMs = clock.Elapsed.TotalMilliseconds;
        LabJson.WriteFile(Path.Combine(outDir, "verification.json"), verification);
        Console.Error.WriteLine($"{request.Name}: verification {verification.Status}: {verification.Message}");

        LabJson.WriteFile(Path.Combine(outDir, "samples.json"), new
        {
            SchemaVersion = 1,
            Engine = new { Name = EngineName, Version = EngineVersion },
            IterationsNs = times.Select(ns => Math.Round(ns, 1)),
            AllocatedBytesPerOp = Math.Round((double)allocated / calls, 1),
            SingleShot = new
            {
                Calls = calls,
                WarmupDataset = warmupDataset.Length > 0 ? warmupDataset : null,
                WarmupCalls = warmupCalls,
                WarmupMs = Math.Round(warmupMs, 1),
                RssBeforeBytes = rssBefore,
                PeakRssBytes = peak,
                PeakRssOf = peakReset ? "timed-calls" : "process",
                Timed = "each call alone (Stopwatch around the call); not process or runtime start, the file read, the warm-up or the verification",
            },
        });
        LabJson.WriteFile(Path.Combine(outDir, "cell.json"), RunVerb.Describe(request, verification, "samples.json", new
        {
            LoadMs = Math.Round(loadMs, 1),
            WarmupMs = Math.Round(warmupMs, 1),
            CallsMs = Math.Round(times.Sum() / 1e6, 3),
            VerifyMs = Math.Round(verifyMs, 1),
        }, new Prewarm.Result(warmupCalls, warmupMs, null, Prewarm.FixedRule, null), calls, "single-shot --calls"));
        LabJson.WriteFile(Path.Combine(outDir, "process.json"), new
        {
            SchemaVersion = 1,
            Cells = new[] { request.Name },
            StartToMainMs = Math.Round((mainEntered - Process.GetCurrentProcess().StartTime).TotalMilliseconds, 1),
        });
        return 0;
    }

    private static Func<object?> Bind(CellRequest request)
    {
        try
        {
            return OperationBinder.Bind(request.Adapter, request.Payload, request.Operation);
        }
        catch (Exception e) when (e is not LabException)
        {
            throw Cannot(request, e);
        }
    }

    private static LabException Cannot(CellRequest request, Exception e) =>
        new($"{request.Adapter.Library} cannot {request.Operation} {request.Payload.Name} here: {Verifier.Describe(e)}",
            $"the variant fails on {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}");

    /// <summary>Keeps a result observable so a call cannot be elided.</summary>
    private static void Keep(object? result)
    {
        if (result is null)
            throw new LabException("the operation returned nothing", "a variant must return what it produced");
    }

    /// <summary>Resets the kernel's peak-RSS mark (VmHWM) to the current resident set: writing 5 to /proc/self/clear_refs
    /// (Linux 4.0+). False where the kernel refuses; the peak is then the whole process's.</summary>
    private static bool PeakReset()
    {
        try
        {
            File.WriteAllText("/proc/self/clear_refs", "5");
            return true;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            return false;
        }
    }
}
