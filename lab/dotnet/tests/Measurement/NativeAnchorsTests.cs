using JsonLab.Measurement;

namespace JsonLab.Tests.Measurement;

public class NativeAnchorsTests
{
    /// <summary>The build puts the library beside the lab (and this test assembly, which references it) wherever `cc`
    /// makes code for this machine, as it does on every machine the lab's setup prepares.</summary>
    [Fact]
    public void The_library_loads_beside_the_lab_and_names_its_bytes()
    {
        var anchors = NativeAnchors.Load();

        Assert.Null(anchors.Unavailable);
        Assert.Equal(NativeAnchors.FileName, Path.GetFileName(anchors.Path));
        Assert.Matches("^[0-9a-f]{64}$", anchors.Sha256!);
    }

    [Fact]
    public void Every_anchor_does_the_same_work_on_every_call_and_its_twin_does_none()
    {
        Assert.Null(NativeAnchors.Load().Unavailable);
        foreach (var name in NativeAnchors.Names)
        {
            var loops = NativeAnchors.Loops(name);
            var first = loops.Operation(1);
            Assert.NotNull(first);
            Assert.Equal(0UL, (ulong)loops.Overhead(3)!);
        }
        // the scan's checksum is a property of its fixed document: equal on every call
        var scan = NativeAnchors.Loops("scan");
        Assert.Equal((ulong)scan.Operation(1)! * 2, (ulong)scan.Operation(2)!);
    }

    [Fact]
    public void An_anchor_of_another_name_is_refused_with_the_names_there_are()
    {
        var error = Assert.Throws<LabException>(() => NativeAnchors.Loops("sha256"));
        Assert.Contains("scan, walk", error.Hint);
    }
}
