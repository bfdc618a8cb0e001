using System.Security.Cryptography;
using System.Text;
using System.Text.Json;
using JsonLab.Compat;
using Xunit;

namespace JsonLab.Tests.Compat;

/// <summary>The stand-ins the .NET Core 3.1 build uses, checked against the real APIs of the runtime the tests run on.</summary>
public class CompatTests
{
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(55)] // the longest message that pads into one block
    [InlineData(56)] // the shortest that needs a second block for its length
    [InlineData(64)]
    [InlineData(1000)]
    public void Managed_sha256_equals_the_platform_sha256(int length)
    {
        var data = Enumerable.Range(0, length).Select(i => (byte)(i * 31 + 7)).ToArray();
        Assert.Equal(SHA256.HashData(data), ManagedSha256.Hash(data));
    }

    [Fact]
    public void Managed_sha256_of_abc_is_the_fips_test_vector()
    {
        Assert.Equal("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
            Convert.ToHexString(ManagedSha256.Hash(Encoding.ASCII.GetBytes("abc"))).ToLowerInvariant());
    }

    [Theory]
    [InlineData("SchemaVersion")]
    [InlineData("StartToMainMs")]
    [InlineData("FileSha256")]
    [InlineData("OSVersion")]
    [InlineData("IsaFlags")]
    [InlineData("BenchmarkDotNetMs")]
    [InlineData("Avx512F")]
    [InlineData("x")]
    public void Snake_case_policy_names_like_the_real_one(string name)
    {
        Assert.Equal(JsonNamingPolicy.SnakeCaseLower.ConvertName(name), new SnakeCaseLowerPolicy().ConvertName(name));
    }
}
