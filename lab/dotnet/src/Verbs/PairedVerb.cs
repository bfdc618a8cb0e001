using System.Diagnostics;
using JsonLab.Adapters;
using JsonLab.Measurement;
using JsonLab.Probes;
using JsonLab.Verification;

namespace JsonLab.Verbs;

/// <summary>
/// `paired`: several cells of one group in this process, measured by <see cref="PairedEngine"/> in alternating bursts.
/// Each <c>--member VARIANT/DATASET/OPERATION=OUTDIR</c> is one cell (the same variant may appear twice: an A/A copy,
/// bound anew); --burst-ms, --burst-rounds, --prewarm-ms, --prewarm-quiet-ms, --seed, --fresh-input-rounds and --burst-collect-generation set the engine; --handoff 1 waits,
/// once warm, to be handed to another CPU (<see cref="AwaitHandover"/>), and with --extend-rounds N plays up to N rounds
/// more than --burst-rounds until its caller says <c>stop</c> (<see cref="HandoverChannel"/>); --member-blocks N,N,… (a process of
/// several groups) names the sizes of consecutive runs of members that form one group, whose bursts then run back to
/// back in every round. Every member is
/// verified first; one whose operation throws is written as failed and left out, the others are still measured. With
/// --native-anchors N the first N native anchors (<see cref="NativeAnchors"/>: 1 the scan, the reading anchor; 2 also the
/// walk, to measure the choice again) are timed as more members of every round, and each
/// cell's samples.json carries their per-round times and the library's sha256; a build without them fails the process
/// with the reason, never measures without them. Files:
/// env.json and process.json in --out; per member env.json, verification.json, cell.json and samples.json (the lab
/// contract's language-neutral raw format, one iteration per round, plus the per-round detail the harness pairs on).
/// </summary>
public static class PairedVerb
{
    /// <summary>The engine as rows name it.</summary>
    public const string EngineName = "jsonlab paired bursts", EngineVersion = "1";

    public static int Execute(CliArgs args)
    {
        var mainEntered = DateTime.Now;
        var handoff = args.OptionalInt("handoff", min: 0, max: 1) == 1;
        var extendRounds = args.OptionalInt("extend-rounds", min: 0) ?? 0;
        if (extendRounds > 0 && !handoff)
            throw new LabException("--extend-rounds needs --handoff 1: only a handed-over process has a caller that says when to stop",
                "pass --handoff 1 too, or leave --extend-rounds out");
        // a handed-over process says its id at once: its caller may move it to the lab's CPU before it is warm
        var channel = handoff ? Started(Console.In, Console.Out) : null;
        var outDir = Path.GetFullPath(args.Required("out"));
        Directory.CreateDirectory(outDir);
        var datasets = args.Required("datasets");
        var members = args.All("member").Select(spec => CellRequest.Member(spec, datasets)).ToList();
        if (members.Count == 0)
            throw new LabException("`paired` needs at least one --member", "pass --member VARIANT/DATASET/OPERATION=OUTDIR, once per cell");
        if (SharedMetadata.Conflict(members.Select(m => m.Adapter).ToList()) is { } conflict)
            throw new LabException(conflict, SharedMetadata.Fix);
        var settings = new PairedEngine.Settings(args.OptionalInt("burst-ms") ?? 20, args.OptionalInt("burst-rounds") ?? 20,
            args.OptionalInt("prewarm-ms", min: 0) ?? 3000, args.OptionalInt("prewarm-quiet-ms", min: 0) ?? 300, args.OptionalInt("seed") ?? 1,
            args.OptionalInt("fresh-input-rounds", min: 0) ?? 0,
            args.OptionalInt("burst-collect-generation", min: 0, max: PairedEngine.FullCollectionGeneration) ?? PairedEngine.FullCollectionGeneration).Validate();
        var blocks = MemberBlocks(args.All("member-blocks") is [var sizes, ..] ? sizes : null, members.Count);
        var anchorCount = Math.Min(args.OptionalInt("native-anchors") ?? 0, NativeAnchors.Names.Count);
        var anchored = anchorCount > 0;
        var anchors = anchored ? NativeAnchors.Load() : null;
        if (anchors?.Unavailable is { } why)
            throw new LabException($"the native anchors asked for are unavailable in this build: {why}",
                "build the lab where `cc` makes code for this architecture (scripts/setup installs gcc), or run without native_anchors");
        var env = RuntimeProbe.Capture();
        LabJson.WriteFile(Path.Combine(outDir, "env.json"), env);

        var measured = new List<(CellRequest Request, VerificationResult Verification, double VerifyMs, BurstLoops Loops)>();
        var measuredBlocks = new List<int>();
        foreach (var (request, index) in members.Select((m, i) => (m, i)))
        {
            var (verification, verifyMs) = RunVerb.VerifyCell(request, env, outDir, "the group's other cells still run");
            if (verification.OperationError is not null)
                continue;
            measured.Add((request, verification, verifyMs, BurstLoops.For(request.Adapter, request.Payload, request.Operation)));
            measuredBlocks.Add(blocks?[index] ?? 0);
        }
        if (measured.Count == 0)
            throw new LabException("no member of this process could be measured", "every member failed before timing; see their cell.json");

        var anchorNames = NativeAnchors.Names.Take(anchorCount).ToList();
        // the anchors, timed against every group, are a block of their own
        if (blocks is not null)
            settings = settings with { Blocks = measuredBlocks.Concat(anchorNames.Select(_ => blocks.Max() + 1)).ToArray() };
        string? warmedOn = null;
        var handover = channel is not null
            ? new Action(() => { warmedOn = ProcStatus.CpusAllowed(); AwaitHandover(channel, Console.Out); })
            : null;
        var result = PairedEngine.Run(measured.Select(m => m.Loops).Concat(anchorNames.Select(NativeAnchors.Loops)).ToList(), settings, handover: handover,
            extend: extendRounds > 0 ? () => !channel!.Stopped : null, extendRounds: extendRounds);
        if (handover is not null)
            RecordHandover(env, warmedOn, outDir, members.Select(m => m.OutDir));
        var anchorTimes = anchorNames.Select((name, i) => (name, times: result.Members[measured.Count + i].NsPerCall.Select(ns => Math.Round(ns, 3)).ToArray()))
            .ToDictionary(a => a.name, a => a.times);
        for (var i = 0; i < measured.Count; i++)
        {
            var (request, verification, verifyMs, _) = measured[i];
            var member = result.Members[i];
            Console.Error.WriteLine($"{request.Name}: {result.Rounds} bursts of {member.CallsPerBurst} calls, median {PairedEngine.Median(member.NsPerCall):F1} ns per call "
                                    + $"(overhead {member.OverheadNsPerCall:F2} ns subtracted), prewarm {member.Prewarm.Calls} calls in {member.PrewarmMs:F0} ms ({member.Prewarm.Rule})");
            if (member.NsPerCall.Any(ns => ns <= 0))
            {
                RunVerb.WriteFailed(request, $"a burst of {request.Name} took no longer than its overhead loop ({member.OverheadNsPerCall:F2} ns per call): the operation is below what the loop resolves here",
                    "a longer input, or the operation inside a larger one, is measurable");
                continue;
            }
            LabJson.WriteFile(Path.Combine(request.OutDir, "samples.json"), new
            {
                SchemaVersion = 1,
                Engine = new { Name = EngineName, Version = EngineVersion },
                IterationsNs = member.NsPerCall.Select(ns => Math.Round(ns, 3)),
                AllocatedBytesPerOp = Math.Round(PairedEngine.Median(member.AllocatedBytesPerCall), 1),
                Paired = new
                {
                    settings.BurstMs,
                    result.Rounds,
                    ExtraRounds = result.Rounds - settings.Rounds,
                    settings.Seed,
                    Members = measured.Select(m => m.Request.Name),
                    member.CallsPerBurst,
                    OverheadNsPerCall = Math.Round(member.OverheadNsPerCall, 3),
                    RawNsPerCall = member.RawNsPerCall.Select(ns => Math.Round(ns, 3)),
                    AllocatedBytesPerCall = member.AllocatedBytesPerCall.Select(b => Math.Round(b, 1)),
                    member.Positions,
                    Gen0Collections = member.Gen0,
                    Gen1Collections = member.Gen1,
                    Gen2Collections = member.Gen2,
                    NativeAnchors = anchored ? anchorTimes : null,
                    NativeAnchorsSha256 = anchors?.Sha256,
                },
            });
            var burstsMs = member.RawNsPerCall.Sum() * member.CallsPerBurst / 1e6;
            LabJson.WriteFile(Path.Combine(request.OutDir, "cell.json"), RunVerb.Describe(request, verification, "samples.json", new
            {
                VerifyMs = Math.Round(verifyMs, 1),
                PrewarmMs = Math.Round(member.PrewarmMs, 1),
                BurstsMs = Math.Round(burstsMs, 1),
            }, member.Prewarm, member.CallsPerBurst, "paired engine: burst of --burst-ms at the warm speed"));
        }
        LabJson.WriteFile(Path.Combine(outDir, "process.json"), new
        {
            SchemaVersion = 1,
            Cells = measured.Select(m => m.Request.Name),
            StartToMainMs = Math.Round((mainEntered - Process.GetCurrentProcess().StartTime).TotalMilliseconds, 1),
            JointPrewarmMs = Math.Round(result.JointMs, 1),
            JointPrewarmPasses = result.JointPasses,
            JointPrewarmCompilations = result.JointCompilations,
            JointPrewarmRule = result.JointRule,
            OverheadMs = Math.Round(result.OverheadMs, 1),
            BurstsMs = Math.Round(result.BurstsMs, 1),
            CollectionsBetweenBurstsMs = Math.Round(result.CollectMs, 1),
            RoundsCompilations = result.RoundsCompilations,
            result.Rounds,
            ExtraRounds = result.Rounds - settings.Rounds,
            ExtraRoundsMs = Math.Round(result.ExtraRoundsMs, 1),
            settings.FreshInputRounds,
            BurstCollectGeneration = settings.CollectGeneration,
            result.FreshInputs,
            FreshInputsMs = Math.Round(result.FreshInputsMs, 1),
            NativeAnchors = anchored ? anchorNames.Select((name, i) => new
            {
                Name = name,
                result.Members[measured.Count + i].CallsPerBurst,
                OverheadNsPerCall = Math.Round(result.Members[measured.Count + i].OverheadNsPerCall, 3),
                NsPerCall = anchorTimes[name],
            }) : null,
            NativeAnchorsSha256 = anchors?.Sha256,
            HandoverWaitMs = result.HandoverWaitMs is { } wait ? Math.Round(wait, 1) : (double?)null,
            RewarmMs = Math.Round(result.RewarmMs, 1),
        });
        return 0;
    }

    /// <summary>The line a process warmed for a hand-over prints on its standard output, followed by its process id.</summary>
    public const string WarmLine = "jsonlab-warm";

    /// <summary><c>--handoff 1</c>: once warm, say so on standard output with this process's id and the CPU time it has
    /// used so far (<c>jsonlab-warm PID cpu-ms=N</c>: the caller counts the lab CPU's share from there), and wait for a line
    /// <c>go</c> on standard input, which the caller sends after moving every thread of the process to the lab's CPU.</summary>
    public static void AwaitHandover(TextReader input, TextWriter output) => AwaitHandover(new HandoverChannel(input), output);

    /// <summary>The line a process of <c>--handoff 1</c> prints first, as it starts, followed by its process id: its
    /// caller may then move it to the lab's CPU before it is warm (and says <c>moved</c>).</summary>
    public const string StartedLine = "jsonlab-started";

    /// <summary><c>--handoff 1</c>, as the verb starts: the channel that reads the caller's lines, and the started
    /// line (<c>jsonlab-started PID</c>) on standard output.</summary>
    public static HandoverChannel Started(TextReader input, TextWriter output)
    {
        var channel = new HandoverChannel(input);
        output.WriteLine($"{StartedLine} {Process.GetCurrentProcess().Id}");
        output.Flush();
        return channel;
    }

    /// <summary>As <see cref="AwaitHandover(TextReader, TextWriter)"/>, reading the caller's lines from
    /// <paramref name="channel"/>; the CPU time said is what the process used before it was moved, if it was moved
    /// before it was warm (<see cref="HandoverChannel.MovedCpuMs"/>).</summary>
    public static void AwaitHandover(HandoverChannel channel, TextWriter output)
    {
        var self = Process.GetCurrentProcess();
        var cpuMs = (channel.MovedCpuMs ?? self.TotalProcessorTime.TotalMilliseconds).ToString("F0", System.Globalization.CultureInfo.InvariantCulture);
        output.WriteLine($"{WarmLine} {self.Id} cpu-ms={cpuMs}");
        output.Flush();
        if (channel.AwaitFirstLine() != "go")
            throw new LabException("the warm process was not handed over: its standard input ended without a line 'go'",
                "run `paired --handoff 1` only from a caller that moves the process and then answers 'go' on its standard input");
    }

    /// <summary>After a hand-over, env.json (the process's and each member's) says where the bursts ran:
    /// <c>cpus_allowed</c> read again on the CPU the process was handed to (the harness checks it against the CPU it
    /// asked for), <c>cpus_warmed</c> where it started, verified and warmed.</summary>
    public static void RecordHandover(SortedDictionary<string, object?> env, string? warmedOn, string outDir, IEnumerable<string> memberDirs)
    {
        env["cpus_warmed"] = warmedOn;
        env["cpus_allowed"] = ProcStatus.CpusAllowed();
        LabJson.WriteFile(Path.Combine(outDir, "env.json"), env);
        foreach (var dir in memberDirs.Where(d => d != outDir && File.Exists(Path.Combine(d, "env.json"))))
            LabJson.WriteFile(Path.Combine(dir, "env.json"), env);
    }

    /// <summary>Each member's block from <c>--member-blocks N,N,…</c>: the sizes of consecutive runs of members that
    /// belong to one group (a process of several groups); null when absent. Sizes that are not positive integers adding up
    /// to the members are refused with the fix.</summary>
    public static int[]? MemberBlocks(string? sizes, int members)
    {
        if (sizes is null)
            return null;
        var parts = sizes.Split(',');
        var counts = parts.Select(p => int.TryParse(p, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var n) ? n : 0).ToArray();
        if (counts.Any(n => n < 1) || counts.Sum() != members)
            throw new LabException($"--member-blocks '{sizes}' must be positive block sizes adding up to the {members} members",
                $"pass --member-blocks {members} for one group, or the sizes of each group's consecutive --member options");
        return counts.SelectMany((n, block) => Enumerable.Repeat(block, n)).ToArray();
    }
}
