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
    public static SortedDictionary<string, object> Capture()
    {
        var flags = new SortedDictionary<string, object>
        {
            ["sse2"] = Sse2.IsSupported,
            ["sse3"] = Sse3.IsSupported,
            ["ssse3"] = Ssse3.IsSupported,
            ["sse41"] = Sse41.IsSupported,
            ["sse42"] = Sse42.IsSupported,
            ["avx"] = Avx.IsSupported,
            ["avx2"] = Avx2.IsSupported,
            ["vector_byte_count"] = Vector<byte>.Count,
        };
#if LEGACY_RUNTIME
        // Known, not read: .NET Core 3.1 has no AVX-512 or Vector512 API, so its code never uses them.
        flags["avx512f"] = false;
        flags["vector512"] = false;
#else
        flags["avx512f"] = Avx512F.IsSupported;
        flags["adv_simd"] = AdvSimd.IsSupported;
        flags["vector64"] = Vector64.IsHardwareAccelerated;
        flags["vector128"] = Vector128.IsHardwareAccelerated;
        flags["vector256"] = Vector256.IsHardwareAccelerated;
        flags["vector512"] = Vector512.IsHardwareAccelerated;
#endif
        return flags;
    }
}
