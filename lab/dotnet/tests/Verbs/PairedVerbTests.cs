using JsonLab.Measurement;
using JsonLab.Verbs;

namespace JsonLab.Tests.Verbs;

public class PairedVerbTests
{
    [Fact]
    public void Member_blocks_give_each_member_its_groups_block()
    {
        Assert.Null(PairedVerb.MemberBlocks(null, 3));
        Assert.Equal([0, 0, 1, 2, 2], PairedVerb.MemberBlocks("2,1,2", 5)!);
        Assert.Equal([0, 0, 0], PairedVerb.MemberBlocks("3", 3)!);
    }

    [Theory]
    [InlineData("2,2", 5)]
    [InlineData("2,0,3", 5)]
    [InlineData("2,-1,4", 5)]
    [InlineData("two", 2)]
    [InlineData("", 2)]
    public void Member_blocks_that_do_not_add_up_to_the_members_are_refused_with_the_fix(string sizes, int members)
    {
        var error = Assert.Throws<LabException>(() => PairedVerb.MemberBlocks(sizes, members));
        Assert.Contains("--member-blocks", error.Hint);
        Assert.Contains($"{members} members", error.Message);
    }

    [Fact]
    public void A_warm_process_says_so_with_its_id_and_waits_for_go()
    {
        var output = new StringWriter();
        PairedVerb.AwaitHandover(new StringReader("go\n"), output);
        var words = output.ToString().Trim().Split(' ');
        Assert.Equal(3, words.Length);
        Assert.Equal(PairedVerb.WarmLine, words[0]);
        Assert.Equal(System.Diagnostics.Process.GetCurrentProcess().Id.ToString(System.Globalization.CultureInfo.InvariantCulture), words[1]);
        Assert.StartsWith("cpu-ms=", words[2]);
        Assert.True(double.Parse(words[2]["cpu-ms=".Length..], System.Globalization.CultureInfo.InvariantCulture) > 0);
    }

    [Fact]
    public void A_handed_over_process_says_its_id_as_it_starts()
    {
        var output = new StringWriter();
        var channel = PairedVerb.Started(new StringReader("go\n"), output);
        Assert.Equal($"{PairedVerb.StartedLine} {System.Diagnostics.Process.GetCurrentProcess().Id}", output.ToString().Trim());
        Assert.Equal("go", channel.AwaitFirstLine());
        Assert.Null(channel.MovedCpuMs);
    }

    [Fact]
    public void Moved_before_it_was_warm_the_warm_line_says_the_cpu_time_used_before_the_move()
    {
        using var caller = new PipedCaller();
        var (channel, writer) = (caller.Channel, caller.Writer);
        writer.WriteLine("moved");
        PipedCaller.Until(() => channel.MovedCpuMs is not null);
        var moved = channel.MovedCpuMs;
        Assert.NotNull(moved);
        var spin = System.Diagnostics.Stopwatch.StartNew();
        while (spin.ElapsedMilliseconds < 100)
        {
        }
        writer.WriteLine("moved");  // said again: the first one counts
        writer.WriteLine("go");
        var output = new StringWriter();
        PairedVerb.AwaitHandover(channel, output);
        var said = double.Parse(output.ToString().Trim().Split(' ')[2]["cpu-ms=".Length..], System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal(Math.Round(moved!.Value), said);
        Assert.True(System.Diagnostics.Process.GetCurrentProcess().TotalProcessorTime.TotalMilliseconds > said + 50);
    }

    [Theory]
    [InlineData("go\nstop\n", true)]
    [InlineData("go\n", true)]  // the caller closed its end: nothing more will be said
    [InlineData("go\nsomething\nstop\n", true)]
    public void After_go_the_channel_says_stopped_once_the_caller_says_stop_or_closes(string input, bool stopped)
    {
        var channel = new HandoverChannel(new StringReader(input));
        Assert.Equal("go", channel.AwaitFirstLine());
        PipedCaller.Until(() => channel.Stopped);
        Assert.Equal(stopped, channel.Stopped);
    }

    [Fact]
    public void A_caller_that_has_not_said_stop_keeps_the_channel_open()
    {
        using var caller = new PipedCaller();
        var (channel, writer) = (caller.Channel, caller.Writer);
        writer.WriteLine("go");
        Assert.Equal("go", channel.AwaitFirstLine());
        Thread.Sleep(50);
        Assert.False(channel.Stopped);
        writer.WriteLine("stop");
        PipedCaller.Until(() => channel.Stopped);
        Assert.True(channel.Stopped);
    }

    [Fact]
    public void Extra_rounds_without_a_hand_over_are_refused_with_the_fix()
    {
        var error = Assert.Throws<LabException>(() => PairedVerb.Execute(CliArgs.Parse(["paired", "--out", Path.GetTempPath(), "--datasets", ".",
            "--member", "a/b/c=d", "--extend-rounds", "5"])));
        Assert.Contains("--handoff 1", error.Message);
    }

    [Theory]
    [InlineData("")]
    [InlineData("stop\n")]
    public void A_warm_process_never_handed_over_fails_with_the_reason(string input)
    {
        var error = Assert.Throws<LabException>(() => PairedVerb.AwaitHandover(new StringReader(input), new StringWriter()));
        Assert.Contains("not handed over", error.Message);
        Assert.Contains("--handoff 1", error.Hint);
    }

    [Fact]
    public void After_a_hand_over_env_json_says_where_the_process_warmed_and_where_its_bursts_ran()
    {
        var root = Directory.CreateTempSubdirectory("handover-").FullName;
        try
        {
            var member = Directory.CreateDirectory(Path.Combine(root, "member")).FullName;
            var failed = Path.Combine(root, "never-verified");
            File.WriteAllText(Path.Combine(member, "env.json"), "{}");
            var env = new SortedDictionary<string, object?> { ["cpus_allowed"] = "0", ["lab"] = "dotnet" };
            PairedVerb.RecordHandover(env, "0", root, [member, failed]);
            foreach (var dir in new[] { root, member })
            {
                var written = System.Text.Json.JsonDocument.Parse(File.ReadAllText(Path.Combine(dir, "env.json"))).RootElement;
                Assert.Equal("0", written.GetProperty("cpus_warmed").GetString());
                Assert.Equal(JsonLab.Probes.ProcStatus.CpusAllowed(), written.GetProperty("cpus_allowed").GetString());
                Assert.Equal("dotnet", written.GetProperty("lab").GetString());
            }
            Assert.False(Directory.Exists(failed));
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    /// <summary>A caller of a handed-over process: the channel reads what <see cref="Writer"/> writes, through a pipe
    /// that stays open until disposed.</summary>
    private sealed class PipedCaller : IDisposable
    {
        private readonly System.IO.Pipes.AnonymousPipeServerStream _pipe = new(System.IO.Pipes.PipeDirection.Out);
        private readonly StreamReader _reader;

        public PipedCaller()
        {
            _reader = new StreamReader(new System.IO.Pipes.AnonymousPipeClientStream(System.IO.Pipes.PipeDirection.In, _pipe.ClientSafePipeHandle));
            Writer = new StreamWriter(_pipe) { AutoFlush = true };
            Channel = new HandoverChannel(_reader);
        }

        public HandoverChannel Channel { get; }

        public StreamWriter Writer { get; }

        /// <summary>Waits up to five seconds for <paramref name="done"/>.</summary>
        public static void Until(Func<bool> done)
        {
            var waited = System.Diagnostics.Stopwatch.StartNew();
            while (!done() && waited.ElapsedMilliseconds < 5000)
                Thread.Sleep(1);
        }

        public void Dispose()
        {
            Writer.Dispose();
            _reader.Dispose();
            _pipe.Dispose();
        }
    }
}
