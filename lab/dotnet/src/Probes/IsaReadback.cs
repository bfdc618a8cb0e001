using System.Numerics;
using System.Runtime.Intrinsics;
#if !LEGACY_RUNTIME
using System.Runtime.Intrinsics.Arm;
#endif
using System.Runtime.Intrinsics.X86;

namespace JsonLab.Probes;

/// <summary>
/// Instruction-set support as the JIT of this very process sees it, after any DOTNET_Enable*
/// switches: the ground truth for "did the ISA toggle take effect".
/// </summary>
public static class IsaReadback
{
    /// <summary>Flag name to value; names are the harness's isa flag names (snake_case). A runtime that predates an
    /// API reports no value for its flag (unknown, not false): .NET Core 3.1 cannot say whether Vector64/128/256 are
    /// accelerated, and has no Arm intrinsics API.</summary>
#if LEGACY_RUNTIME
    public static SortedDictionary<string, object> Capture() => new()
    {
        ["sse2"] = Sse2.IsSupported,
        ["sse3"] = Sse3.IsSupported,
        ["ssse3"] = Ssse3.IsSupported,
        ["sse41"] = Sse41.IsSupported,
        ["sse42"] = Sse42.IsSupported,
        ["avx"] = Avx.IsSupported,
        ["avx2"] = Avx2.IsSupported,
        // Known, not read: .NET Core 3.1 has no AVX-512 or Vector512 API, so its code never uses them.
        ["avx512f"] = false,
        ["vector512"] = false,
        ["vector_byte_count"] = Vector<byte>.Count,
    };
#else
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
#endif
}
