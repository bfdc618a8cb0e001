using System.Runtime.CompilerServices;
using JsonLab.Adapters;
using JsonLab.Datasets;
using JsonLab.Escaping;

namespace JsonLab.Measurement;

/// <summary>
/// A timed loop of the paired engine: <c>calls</c> calls of one operation, back to back, returning the last result so
/// the calls cannot be elided. Each loop has an overhead twin of the same shape whose call does nothing; the engine times
/// both and subtracts the twin's time per call, as BenchmarkDotNet subtracts its overhead iterations.
/// </summary>
public delegate object? BurstLoop(long calls);

/// <summary>The loops of one cell: the operation's and its overhead twin; <c>Fresh</c> binds the same cell anew over a
/// fresh copy of its input (new objects, new text), for the paired engine's fresh inputs.</summary>
public sealed record BurstLoops(BurstLoop Operation, BurstLoop Overhead, Func<BurstLoops>? Fresh = null)
{
    /// <summary>
    /// Serializer cells call their bound operation through its delegate (as <see cref="CellBenchmark"/> does); write-up
    /// 002's escaping checks call the check through one non-inlined method, the shape of <see cref="EscapingBenchmark"/>'s
    /// [Benchmark] methods, because a delegate costs as much as the check itself on short strings.
    /// </summary>
    public static BurstLoops For(ISerializerAdapter adapter, Payload payload, string operation) =>
        Bound(adapter, payload, operation) with { Fresh = () => For(adapter, payload.Copy(), operation) };

    private static BurstLoops Bound(ISerializerAdapter adapter, Payload payload, string operation)
    {
        if (adapter is IEscapingCheckAdapter escaping && operation == OperationBinder.NeedsEscaping)
        {
            var text = (string)ReferenceReader.Read(payload, typeof(string));
            return escaping.BenchmarkMethod switch
            {
                nameof(EscapingBenchmark.Scalar) => new(calls => Repeat(Scalar, text, calls), calls => Repeat(Nothing, text, calls)),
                nameof(EscapingBenchmark.Sse2) => new(calls => Repeat(Sse2, text, calls), calls => Repeat(Nothing, text, calls)),
                _ => throw new LabException($"no paired loop for escaping check {escaping.BenchmarkMethod}", "add it to Measurement/BurstLoop.cs"),
            };
        }
        var bound = OperationBinder.Bind(adapter, payload, operation);
        return new(calls => Repeat(bound, calls), calls => Repeat(NothingBound, calls));
    }

    private static readonly Func<object?> NothingBound = static () => null;

    private static object? Repeat(Func<object?> op, long calls)
    {
        object? last = null;
        for (long i = 0; i < calls; i++)
            last = op();
        return last;
    }

    private static object? Repeat(Func<string, int> check, string text, long calls)
    {
        var sum = 0;
        for (long i = 0; i < calls; i++)
            sum += check(text);
        return sum;
    }

    // Static lambdas over non-inlined methods: one call per iteration, like BenchmarkDotNet's [Benchmark] invocation.
    private static readonly Func<string, int> Scalar = static text => ScalarCall(text);
    private static readonly Func<string, int> Sse2 = static text => Sse2Call(text);
    private static readonly Func<string, int> Nothing = static text => NothingCall(text);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int ScalarCall(string text) => NeedsEscaping.Scalar(text);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int Sse2Call(string text) => NeedsEscaping.Sse2Vectorized(text);

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static int NothingCall(string text) => 0;
}
