using JsonLab.Adapters;
using JsonLab.Escaping;
using JsonLab.Measurement;
using JsonLab.Verification;

namespace JsonLab.Tests.Adapters;

/// <summary>Write-up 002's escaping micro-benchmark: the regenerated cases and both implementations.</summary>
public class EscapingTests
{
    [Fact]
    public void The_seeded_cases_reproduce_every_label_the_pr_printed()
    {
        var cases = EscapingCases.All().ToList();
        string Text(int length, int at) => cases.Single(c => c.Length == length && c.NegativeIndex == at).Text;

        Assert.Equal(27, cases.Count);
        Assert.Equal("r", Text(1, -1));
        Assert.Equal("dd", Text(2, -1));
        Assert.Equal("negs", Text(4, -1));
        Assert.Equal("netggni", Text(7, -1));
        Assert.Equal("jgnavpkd", Text(8, -1));
        Assert.Equal("csvobsdxs", Text(9, -1));
        Assert.EndsWith("dabu", Text(15, -1));
        Assert.EndsWith("sqfa", Text(16, -1));
        Assert.EndsWith("aabr", Text(17, -1));
        Assert.EndsWith("dfpn", Text(32, -1));
        Assert.EndsWith("kuwu", Text(100, -1));
        Assert.Equal("<etggni", Text(7, 0));
        Assert.Equal("jgnavpk<", Text(8, 7));
        Assert.Equal("<", Text(1, 0));
    }

    public static TheoryData<string> Inputs()
    {
        var data = new TheoryData<string> { "", "a", "abcdefgh", "abcdefg\"", "abcdefghijklmno\u007f", "\u00e9", "abcdefgh\u8000ij", "`", "a+b", "12345678&" };
        var random = new Random(7);
        var pool = "abcXYZ019 ~\"&'+<>\\`\u001f\u007f\u00e9\u4e2d\uffff";
        for (var i = 0; i < 40; i++)
            data.Add(new string(Enumerable.Range(0, random.Next(0, 40)).Select(_ => random.Next(10) == 0 ? pool[random.Next(pool.Length)] : (char)random.Next('a', 'z' + 1)).ToArray()));
        return data;
    }

    [Theory]
    [MemberData(nameof(Inputs))]
    public void Both_implementations_find_the_same_first_character_as_the_reference_rule(string text)
    {
        var expected = Verifier.ReferenceFirstToEscape(text);

        Assert.Equal(expected, NeedsEscaping.Scalar(text));
        if (System.Runtime.Intrinsics.X86.Sse2.IsSupported)
            Assert.Equal(expected, NeedsEscaping.Sse2Vectorized(text));
    }

    [Theory]
    [InlineData("needs-escaping-scalar")]
    [InlineData("needs-escaping-sse2")]
    public void An_escaping_variant_verifies_on_a_case_and_returns_the_index_without_allocating(string variant)
    {
        if (variant.EndsWith("sse2") && !System.Runtime.Intrinsics.X86.Sse2.IsSupported)
            return; // "not applicable" off x86-64: covered by the failure test below on such machines
        var adapter = VariantRegistry.Find(variant);
        var payload = TestPayloads.Of("string", "\"netg<ni\"");

        var result = Verifier.Verify(adapter, payload, OperationBinder.NeedsEscaping);
        var op = OperationBinder.Bind(adapter, payload, OperationBinder.NeedsEscaping);
        op();
        var before = GC.GetAllocatedBytesForCurrentThread();
        var index = op();
        var allocated = GC.GetAllocatedBytesForCurrentThread() - before;

        Assert.True(result.Status == "passed", result.Message);
        Assert.Equal(4, index);
        Assert.Equal(0, allocated);
    }

    [Fact]
    public void An_escaping_variant_is_not_a_serializer_and_says_so()
    {
        var error = Assert.Throws<LabException>(() => OperationBinder.Bind(VariantRegistry.Find("needs-escaping-scalar"), TestPayloads.Of("string", "\"a\""), "deserialize"));

        Assert.Contains("not a serializer", error.Message);
    }
}
