using System.Numerics;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.Arm;
using System.Runtime.Intrinsics.X86;

namespace JsonLab.Probes;

/// <summary>
/// Instruction-set support as the JIT of this very process sees it, after any DOTNET_Enable*
/// switches: the ground truth for "did the ISA toggle take effect".
/// </summary>
public static class IsaReadback
{
    /// <summary>Flag name to value; names are the harness's isa flag names (snake_case).</summary>
    public static SortedDictionary<string, object> Capture() => new()
    {
        ["sse2"] = Sse2.IsSupported,
        ["sse3"] = Sse3.IsSupported,
        ["ssse3"] = Ssse3.IsSupported,
        ["sse41"] = Sse41.IsSupported,
        ["sse42"] = Sse42.IsSupported,
        ["avx"] = Avx.IsSupported,
        ["avx2"] = Avx2.IsSupported,
        ["avx512f"] = Avx512F.IsSupported,
        ["adv_simd"] = AdvSimd.IsSupported,
        ["vector64"] = Vector64.IsHardwareAccelerated,
        ["vector128"] = Vector128.IsHardwareAccelerated,
        ["vector256"] = Vector256.IsHardwareAccelerated,
        ["vector512"] = Vector512.IsHardwareAccelerated,
        ["vector_byte_count"] = Vector<byte>.Count,
    };
}
