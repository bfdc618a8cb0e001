using JsonLab.Probes;
using JsonLab.Measurement;
using JsonLab.Verification;

namespace JsonLab.Verbs;

/// <summary>
/// `once`: one cold call of a cell's operation, then exit; a whole process for hyperfine to time. With --prepare-only
/// the process does everything but the call (runtime start, dataset read, binding), so the difference of the two is
/// what the first call costs. With --report-rss it prints, before it exits, the process's peak resident set (the kernel's
/// VmHWM) and the CPUs it was allowed to run on. The peak is read from inside because a parent's ru_maxrss is inherited
/// across exec, so wait4 from the harness would report the harness's own peak for a small process. An operation that throws is an error with the library's reason (exit 2).
/// </summary>
public static class OnceVerb
{
    public static int Execute(CliArgs args)
    {
        var request = CellRequest.From(args);
        var prepareOnly = args.Optional("prepare-only", "false") == "true";
        int exit;
        try
        {
            var operation = OperationBinder.Bind(request.Adapter, request.Payload, request.Operation);
            // Keep the result observable so the call cannot be elided.
            exit = prepareOnly ? 0 : operation() is null ? 3 : 0;
        }
        catch (Exception e) when (e is not LabException)
        {
            throw new LabException($"{request.Adapter.Library} cannot {request.Operation} {request.Payload.Model} here: {Verifier.Describe(e)}",
                $"the variant fails on {System.Runtime.InteropServices.RuntimeInformation.FrameworkDescription}; its other cells still run");
        }
        if (args.Optional("report-rss", "false") == "true")
        {
            Console.WriteLine($"peak_rss_bytes {ProcStatus.PeakResidentBytes()}");
            Console.WriteLine($"cpus_allowed {ProcStatus.CpusAllowed()}");
        }
        return exit;
    }
}
