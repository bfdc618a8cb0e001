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
        Assert.Equal($"{PairedVerb.WarmLine} {System.Diagnostics.Process.GetCurrentProcess().Id}", output.ToString().Trim());
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
}
