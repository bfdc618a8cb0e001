using System.Diagnostics;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Filters;
using BenchmarkDotNet.Running;
using JsonLab.Adapters;
using JsonLab.Measurement;
using JsonLab.Probes;
using JsonLab.Verification;

namespace JsonLab.Verbs;

/// <summary>
/// `run`: one or more cells of one variant in this process. Order matters: capture the environment (the ISA the
/// JIT will use), verify every cell, then let BenchmarkDotNet measure the cells one after the other, each after a
/// warm-up by time (--prewarm-ms, inside its GlobalSetup). A cell whose operation throws (a library that cannot
/// run here) is written as failed and left out; the others are still measured. Files: env.json in --out and in
/// every cell folder; per cell verification.json and cell.json; BenchmarkDotNet's artifacts under --out/bdn.
/// </summary>
public static class RunVerb
{
    public static int Execute(CliArgs args)
    {
        var mainEntered = DateTime.Now;
        var requests = CellRequest.AllFrom(args);
        var outDir = Path.GetFullPath(args.Required("out"));
        Directory.CreateDirectory(outDir);
        var env = RuntimeProbe.Capture();
        LabJson.WriteFile(Path.Combine(outDir, "env.json"), env);

        var measured = new List<(CellRequest Request, VerificationResult Verification, double VerifyMs, double BindMs, string Key)>();
        string? firstError = null;
        foreach (var request in requests)
        {
            var (verification, verifyMs) = VerifyCell(request, env, outDir, "its other cells still run");
            if (verification.OperationError is { } error)
            {
                firstError ??= error;
                continue;
            }
            var clock = Stopwatch.StartNew();
            var key = $"cell-{measured.Count}";
            CellBenchmark.Bound[key] = OperationBinder.Bind(request.Adapter, request.Payload, request.Operation);
            measured.Add((request, verification, verifyMs, clock.Elapsed.TotalMilliseconds, key));
        }
        if (measured.Count == 0)
            throw new LabException(firstError ?? "no cell could be measured", "every cell of this process failed before timing; see the cell folders' cell.json");

        var baseJob = JobFrom(args);
        var prewarmMs = args.OptionalInt("prewarm-ms") ?? 0;
        var prewarmQuietMs = args.OptionalInt("prewarm-quiet-ms") ?? 0;
        BdnHostInfo.AvoidSubprocesses();
        var benchmarkMs = 0.0;
        foreach (var (request, verification, verifyMs, bindMs, key) in measured)
        {
            // Warm up by time, then size the iterations from the warm speed instead of BenchmarkDotNet's pilot stage
            // (which costs up to half a second for a fast operation); the job says which it did.
            var prewarm = prewarmMs > 0 ? Prewarm.Run(CellBenchmark.Bound[key], prewarmMs, prewarmQuietMs) : Prewarm.Result.None;
            Console.Error.WriteLine($"{request.Name}: prewarm {prewarm.Calls} calls in {prewarm.Ms:F0} ms, {prewarm.Compilations?.ToString() ?? "uncounted"} JIT compilations, "
                                    + prewarm.Rule switch
                                    {
                                        Prewarm.JitQuietRule => $"JIT quiet for {prewarmQuietMs} ms",
                                        Prewarm.SpeedStableRule => $"speed stable over two windows of {prewarmQuietMs} ms (no JIT counter on this runtime)",
                                        Prewarm.CapRule => "still settling at the cap",
                                        _ => "fixed time",
                                    });
            var job = baseJob.WithInvocationsFrom(prewarm.NsPerCallAtEnd);
            var artifacts = Path.Combine(request.OutDir, "bdn");
            var clock = Stopwatch.StartNew();
            var (benchmarkType, method) = BenchmarkFor(request, key);
            var summary = BenchmarkRunner.Run(benchmarkType, BuildConfig(job, artifacts, key, method));
            benchmarkMs += clock.Elapsed.TotalMilliseconds;
            var report = Directory.Exists(Path.Combine(artifacts, "results"))
                ? Directory.EnumerateFiles(Path.Combine(artifacts, "results"), "*-report-full.json").FirstOrDefault()
                : null;
            if (summary.HasCriticalValidationErrors || report is null || summary.Reports.Any(r => !r.Success))
            {
                WriteFailed(request, $"BenchmarkDotNet could not measure {request.Name}", $"read the BenchmarkDotNet log in {artifacts}");
                continue;
            }
            LabJson.WriteFile(Path.Combine(request.OutDir, "cell.json"), Describe(request, verification, Path.GetRelativePath(request.OutDir, report), new
            {
                VerifyMs = Math.Round(verifyMs, 1),
                BindMs = Math.Round(bindMs, 1),
                PrewarmMs = Math.Round(prewarm.Ms, 1),
                BenchmarkDotNetMs = Math.Round(clock.Elapsed.TotalMilliseconds, 1),
            }, prewarm, job.InvocationCount, job.InvocationCount is null ? "BenchmarkDotNet pilot" : job.InvocationsFromPrewarm ? "prewarm speed" : "job"));
        }
        LabJson.WriteFile(Path.Combine(outDir, "process.json"), new
        {
            SchemaVersion = 1,
            Cells = measured.Select(m => m.Request.Name),
            StartToMainMs = Math.Round((mainEntered - Process.GetCurrentProcess().StartTime).TotalMilliseconds, 1),
            BenchmarkDotNetMs = Math.Round(benchmarkMs, 1),
        });
        return 0;
    }

    /// <summary>
    /// Verifies one cell before it is timed and records it: its env.json (unless it shares the process's folder), its
    /// verification.json and a log line. A failed check is recorded and the cell is still measured; a cell whose operation
    /// throws (a library that cannot run here) is written as failed, and the caller skips it while the others go on.
    /// </summary>
    internal static (VerificationResult Verification, double VerifyMs) VerifyCell(CellRequest request, SortedDictionary<string, object?> env,
        string processDir, string othersGoOn)
    {
        Directory.CreateDirectory(request.OutDir);
        if (request.OutDir != processDir)
            LabJson.WriteFile(Path.Combine(request.OutDir, "env.json"), env);
        var clock = Stopwatch.StartNew();
        VerificationResult verification;
        try
        {
            verification = Verifier.Verify(request.Adapter, request.Payload, request.Operation);
        }
        catch (LabException e)
        {
            // The variant cannot bind this dataset at all (a model twin left out of the build, say): this member fails with
            // the reason and, in a process of several, the others still run.
            verification = new VerificationResult(request.Adapter.Variant, request.Payload.Name, "", "failed", 0,
                Array.Empty<string>(), "skipped", e.Message, OperationError: e.Message);
            LabJson.WriteFile(Path.Combine(request.OutDir, "verification.json"), verification);
            Console.Error.WriteLine($"{request.Name}: verification failed: {e.Message}");
            WriteFailed(request, e.Message, $"{e.Hint}; {othersGoOn}");
            return (verification, clock.Elapsed.TotalMilliseconds);
        }
        var verifyMs = clock.Elapsed.TotalMilliseconds;
        LabJson.WriteFile(Path.Combine(request.OutDir, "verification.json"), verification);
        Console.Error.WriteLine($"{request.Name}: verification {verification.Status}: {verification.Message}");
        if (verification.OperationError is { } error)
            WriteFailed(request, error, $"the library cannot {request.Operation} this model on {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}; {othersGoOn}");
        return (verification, verifyMs);
    }

    internal static void WriteFailed(CellRequest request, string error, string hint)
    {
        Console.Error.WriteLine($"{request.Name}: failed: {error}");
        LabJson.WriteFile(Path.Combine(request.OutDir, "cell.json"), new
        {
            SchemaVersion = 1,
            Cell = request.Name,
            request.Adapter.Variant,
            request.Adapter.Library,
            request.Adapter.LibraryVersion,
            Dataset = request.Payload.Name,
            request.Operation,
            Status = "failed",
            Error = error,
            Hint = hint,
        });
    }

    private static JobSettings JobFrom(CliArgs args) => new(
        args.OptionalInt("launch-count"),
        args.OptionalInt("warmup-count"),
        args.OptionalInt("iteration-count"),
        args.OptionalInt("iteration-time-ms"),
        args.OptionalInt("invocation-count"));

    /// <summary>The benchmark class and method that measure a cell: the escaping checks directly, everything else through
    /// <see cref="CellBenchmark"/>.</summary>
    private static (Type Type, string? Method) BenchmarkFor(CellRequest request, string key)
    {
        if (request.Adapter is not IEscapingCheckAdapter escaping)
            return (typeof(CellBenchmark), null);
        EscapingBenchmark.Texts[key] = (string)JsonLab.Datasets.ReferenceReader.Read(request.Payload, typeof(string));
        return (typeof(EscapingBenchmark), escaping.BenchmarkMethod);
    }

    private static IConfig BuildConfig(JobSettings job, string artifacts, string key, string? method) =>
        ManualConfig.CreateEmpty()
            .AddJob(job.ToJob())
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddExporter(JsonExporter.Full, MarkdownExporter.GitHub)
            .AddLogger(ConsoleLogger.Default)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .AddFilter(new SimpleFilter(b => Equals(b.Parameters["Cell"], key) && (method is null || b.Descriptor.WorkloadMethod.Name == method)))
            .WithArtifactsPath(artifacts);

    /// <summary>cell.json of a measured cell (both engines): what ran, how it was verified and warmed, and where its raw report is.</summary>
    internal static object Describe(CellRequest request, VerificationResult verification, string reportPath, object timings,
        Prewarm.Result prewarm, long? invocationCount, string invocationCountFrom) => new
        {
            SchemaVersion = 2,
            Cell = request.Name,
            Status = "measured",
            request.Adapter.Variant,
            request.Adapter.Library,
            request.Adapter.LibraryVersion,
            PayloadForm = request.Adapter.Form,
            ModelBinding = request.Adapter.Binding,
            ModelType = Verifier.TypeName(OperationBinder.TypeOf(request.Adapter, request.Payload, request.Operation)),
            Dataset = request.Payload.Name,
            DatasetSha256 = request.Payload.FileSha256,
            request.Operation,
            request.Adapter.Description,
            VerificationStatus = verification.Status,
            PrewarmCalls = prewarm.Calls,
            PrewarmCompilations = prewarm.Compilations,
            PrewarmJitQuiet = prewarm.Rule == Prewarm.JitQuietRule,
            PrewarmRule = prewarm.Rule,
            PrewarmNsPerCall = prewarm.NsPerCallAtEnd is { } ns ? Math.Round(ns, 2) : (double?)null,
            InvocationCount = invocationCount,
            InvocationCountFrom = invocationCountFrom,
            TimingsMs = timings,
            RawReport = reportPath,
        };
}
