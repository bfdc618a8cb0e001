using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace JsonLab.Escaping;

/// <summary>
/// The check System.Text.Json's writer makes before writing a string, "does any character need escaping, and
/// where is the first", in the two forms dotnet/corefx PR #41845 compared (Test_EscapingBenchmark,
/// NeedsEscaping(ReadOnlySpan&lt;char&gt;, encoder: null)). Written here from the PR's description; a .NET 5+ runtime
/// no longer contains the "current" (pre-PR) code, so both live in the lab and are measured side by side.
/// A character needs escaping when the default encoder does not allow it: control characters, '"', '&amp;', '\'',
/// '+', '&lt;', '&gt;', '\\', '`', DEL and everything above ASCII.
/// </summary>
public static class NeedsEscaping
{
    private const char LastAsciiCharacter = (char)0x7F;

    /// <summary>The allow-list: 1 for an ASCII character the default encoder writes as is.</summary>
    private static ReadOnlySpan<byte> AllowList =>
    [
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // U+0000..U+000F
        0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, // U+0010..U+001F
        1, 1, 0, 1, 1, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, // U+0020..U+002F: '"' '&' '\'' '+' escaped
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 0, 1, // U+0030..U+003F: '<' '>' escaped
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // U+0040..U+004F
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 1, 1, 1, // U+0050..U+005F: '\\' escaped
        0, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, // U+0060..U+006F: '`' escaped
        1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, // U+0070..U+007F: DEL escaped
    ];

    /// <summary>"Current" in the PR: one character at a time against the allow-list. Index of the first, or -1.</summary>
    public static int Scalar(ReadOnlySpan<char> value)
    {
        for (var i = 0; i < value.Length; i++)
            if (Needs(value[i]))
                return i;
        return -1;
    }

    /// <summary>
    /// "Intrinsics" in the PR: eight UTF-16 characters at a time with SSE2 (signed 16-bit compares build a mask of the
    /// characters to escape; MoveMask and a trailing-zero count find the first), then the scalar check for the tail.
    /// </summary>
    public static unsafe int Sse2Vectorized(ReadOnlySpan<char> value)
    {
        if (!Sse2.IsSupported)
            throw new PlatformNotSupportedException("not applicable: the SSE2 variant needs x86-64 with SSE2 enabled (Sse2.IsSupported is false here)");
        fixed (char* start = value)
        {
            var i = 0;
            for (; value.Length - 8 >= i; i += 8)
            {
                var chars = Sse2.LoadVector128((short*)(start + i));
                var mask = Sse2.MoveMask(EscapingMask(chars).AsByte());
                if (mask != 0)
                    return i + (BitOperations.TrailingZeroCount(mask) >> 1);
            }
            for (; i < value.Length; i++)
                if (Needs(start[i]))
                    return i;
        }
        return -1;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector128<short> EscapingMask(Vector128<short> chars)
    {
        // Below space catches control characters, and (signed) everything from U+8000 up; above '~' catches DEL..U+7FFF.
        var mask = Sse2.CompareLessThan(chars, Vector128.Create((short)' '));
        mask = Sse2.Or(mask, Sse2.CompareGreaterThan(chars, Vector128.Create((short)'~')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'"')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'&')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'\'')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'+')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'<')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'>')));
        mask = Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'\\')));
        return Sse2.Or(mask, Sse2.CompareEqual(chars, Vector128.Create((short)'`')));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool Needs(char c) => c > LastAsciiCharacter || AllowList[c] == 0;
}

/// <summary>
/// The PR's 27 TestStringData cases, regenerated: lowercase strings drawn from one seeded Random(42) for the lengths
/// 1, 2, 4, 7, 8, 9, 15, 16, 17, 32 and 100 in that order, each as is (negative index -1) and, for lengths 1, 7 and
/// 8, once with '&lt;' at every position. The labels the PR printed (r, dd, negs, netggni, jgnavpkd, csvobsdxs, …)
/// are checked by the lab's tests.
/// </summary>
public static class EscapingCases
{
    public static readonly IReadOnlyList<int> Lengths = [1, 2, 4, 7, 8, 9, 15, 16, 17, 32, 100];
    public static readonly IReadOnlyList<int> LengthsWithEscapes = [1, 7, 8];

    /// <summary>Every case as (length, index of '&lt;' or -1, text), in the PR's order.</summary>
    public static IEnumerable<(int Length, int NegativeIndex, string Text)> All(int seed = 42)
    {
        var random = new Random(seed);
        foreach (var length in Lengths)
        {
            var chars = new char[length];
            for (var i = 0; i < length; i++)
                chars[i] = (char)random.Next('a', 'z' + 1);
            yield return (length, -1, new string(chars));
            if (!LengthsWithEscapes.Contains(length))
                continue;
            for (var at = 0; at < length; at++)
            {
                var copy = (char[])chars.Clone();
                copy[at] = '<';
                yield return (length, at, new string(copy));
            }
        }
    }
}
