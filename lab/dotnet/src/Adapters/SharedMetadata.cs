using System.Collections;
using System.Reflection;
using System.Text.Json;

namespace JsonLab.Adapters;

/// <summary>
/// Members of one process that would measure each other through System.Text.Json's shared metadata. Since
/// System.Text.Json 7 equivalent options instances share one cache of type metadata, found through weak references
/// (<c>JsonSerializerOptions.TrackedCachingContexts</c>, dotnet/runtime PR #64646). A member that builds its options inside
/// every call (<see cref="StjAdapter.OptionsPerCall"/>) therefore rebuilds that metadata after each collection in a process
/// of its own, but finds it ready while another member keeps an equivalent options object alive: measured on .NET 8.0.0
/// (write-up 001's file group, docs/findings.md), the per-call member then cost the same as the reused options (ratio
/// 1.00), compiled 35 methods during its rounds instead of 304–502, and its ratio to Newtonsoft.Json spread 3.5× less
/// between processes. A paired process of the two would measure the per-call member as if its options were reused, so
/// such a process is refused before anything runs.
/// </summary>
public static class SharedMetadata
{
    /// <summary>Why these members cannot share a process (naming the first such pair), or null when they can.</summary>
    public static string? Conflict(IReadOnlyList<ISerializerAdapter> members)
    {
        if (typeof(JsonSerializer).Assembly.GetName().Version is not { Major: >= 7 })
            return null;  // no shared cache: every options instance builds its own metadata
        var kept = members.OfType<StjAdapter>().Where(m => !m.OptionsPerCall)
            .Select(m => (m.Variant, Options: m.NewOptions())).Where(m => m.Options is not null).ToList();
        foreach (var perCall in members.OfType<StjAdapter>().Where(m => m.OptionsPerCall))
        {
            var options = perCall.NewOptions();
            if (options is null)
                continue;
            foreach (var other in kept.Where(k => Equivalent(options, k.Options!)))
                return $"{perCall.Variant} builds its System.Text.Json options inside every call, and {other.Variant} keeps equivalent "
                       + "options alive in the same process: System.Text.Json shares the type metadata of equivalent options, so the "
                       + $"first would be measured as if its options were reused, not as in a process of its own";
        }
        return null;
    }

    /// <summary>The fix <see cref="Conflict"/>'s message comes with.</summary>
    public const string Fix = "measure the two in separate processes: put one in a group of its own, or run the group with "
                              + "--design interleaved (docs/method.md, \"Members that would measure each other\")";

    /// <summary>Whether two options instances would share metadata: every public setting alike (lists by their elements'
    /// types, anything else by Equals, which for a policy, encoder or resolver is the same instance; the resolver chain
    /// and the read-only flag left out). System.Text.Json's own comparison is not public; this one is the same or stricter.</summary>
    public static bool Equivalent(JsonSerializerOptions a, JsonSerializerOptions b) =>
        typeof(JsonSerializerOptions).GetProperties(BindingFlags.Public | BindingFlags.Instance)
            .Where(p => p.CanRead && p.GetIndexParameters().Length == 0 && p.Name is not ("IsReadOnly" or "TypeInfoResolverChain"))
            .All(p => Alike(p.GetValue(a), p.GetValue(b)));

    private static bool Alike(object? x, object? y) => (x, y) switch
    {
        (null, null) => true,
        (null, _) or (_, null) => false,
        (IEnumerable xs, IEnumerable ys) when x is not string =>
            xs.Cast<object?>().Select(e => e?.GetType()).SequenceEqual(ys.Cast<object?>().Select(e => e?.GetType())),
        _ => x.Equals(y),
    };
}
