using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Exporters;
using BenchmarkDotNet.Exporters.Json;
using BenchmarkDotNet.Loggers;
using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Running;
using JsonLab.Measurement;
using JsonLab.Models;
using JsonLab.Probes;
using JsonLab.Verification;

namespace JsonLab.Verbs;

/// <summary>
/// `run`: one cell in this process. Order matters: capture the environment (the ISA the JIT
/// will use), verify the variant's output, warm it up by time (--prewarm-ms), then time it with BenchmarkDotNet. Everything is
/// written to --out: env.json, verification.json, cell.json and BenchmarkDotNet's artifacts.
/// </summary>
public static class RunVerb
{
    public static int Execute(CliArgs args)
    {
        var request = CellRequest.From(args);
        var outDir = Path.GetFullPath(args.Required("out"));
        Directory.CreateDirectory(outDir);
        LabJson.WriteFile(Path.Combine(outDir, "env.json"), RuntimeProbe.Capture());

        // Verify before timing: a failed check is recorded, and the cell is still measured, unless the
        // operation itself throws (a library that cannot run here), which fails the cell with that error.
        var verification = Verifier.Verify(request.Adapter, request.Payload, request.Operation);
        LabJson.WriteFile(Path.Combine(outDir, "verification.json"), verification);
        Console.Error.WriteLine($"verification {verification.Status}: {verification.Message}");
        if (verification.OperationError is { } error)
            throw new LabException(error, $"the library cannot {request.Operation} this model on {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}; its other cells still run");

        CellBenchmark.Bound = OperationBinder.Bind(request.Adapter, request.Payload, request.Operation);
        CellBenchmark.CurrentCell = request.Name;
        var prewarmMs = args.OptionalInt("prewarm-ms");
        var prewarmCalls = prewarmMs is { } ms ? Prewarm.Run(CellBenchmark.Bound, ms) : 0;
        Console.Error.WriteLine($"prewarm: {prewarmCalls} calls in {prewarmMs ?? 0} ms");
        var artifacts = Path.Combine(outDir, "bdn");
        var summary = BenchmarkRunner.Run<CellBenchmark>(BuildConfig(JobFrom(args), artifacts));

        var report = Directory.EnumerateFiles(Path.Combine(artifacts, "results"), "*-report-full.json").FirstOrDefault();
        if (summary.HasCriticalValidationErrors || report is null || summary.Reports.Any(r => !r.Success))
            throw new LabException($"BenchmarkDotNet did not produce a result for {request.Name}", $"read the BenchmarkDotNet log in {artifacts}");

        LabJson.WriteFile(Path.Combine(outDir, "cell.json"), Describe(request, verification, Path.GetRelativePath(outDir, report), prewarmMs, prewarmCalls));
        return 0;
    }

    private static JobSettings JobFrom(CliArgs args) => new(
        args.OptionalInt("launch-count"),
        args.OptionalInt("warmup-count"),
        args.OptionalInt("iteration-count"),
        args.OptionalInt("iteration-time-ms"),
        args.OptionalInt("invocation-count"));

    private static IConfig BuildConfig(JobSettings job, string artifacts) =>
        ManualConfig.CreateEmpty()
            .AddJob(job.ToJob())
            .AddDiagnoser(MemoryDiagnoser.Default)
            .AddExporter(JsonExporter.Full, MarkdownExporter.GitHub)
            .AddLogger(ConsoleLogger.Default)
            .AddColumnProvider(DefaultColumnProviders.Instance)
            .WithArtifactsPath(artifacts);

    private static object Describe(CellRequest request, VerificationResult verification, string reportPath, int? prewarmMs, long prewarmCalls) => new
    {
        SchemaVersion = 1,
        Cell = request.Name,
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
        PrewarmMs = prewarmMs,
        PrewarmCalls = prewarmCalls,
        RawReport = reportPath,
    };
}
