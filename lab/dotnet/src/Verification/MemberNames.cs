using JsonLab.Adapters;

namespace JsonLab.Verification;

/// <summary>
/// How the reference reader and the verifier find a model member's JSON property: its exact name first, then its name
/// ignoring case, as before. While a variant whose naming setting (or, for a declared model, whose source-generation
/// context) writes snake or kebab case is verified
/// (<see cref="For"/>), a member is also found under those forms ("my_integer", "MY-INTEGER" for MyInteger), so its
/// output is checked field by field; every other variant is verified by names alone, as it always was.
/// </summary>
public static class MemberNames
{
    [ThreadStatic] private static bool _separators;

    /// <summary>Separator-blind matching for the verification of this variant when its settings name snake or kebab case,
    /// or, for <paramref name="model"/>, its declared context's naming does (dispose to end it).</summary>
    public static IDisposable For(ISerializerAdapter adapter, Type? model = null)
    {
        var previous = _separators;
        var (_, settings) = VariantSettings.Parse(adapter.Variant);
        _separators = previous
                      || settings.Any(s => s.Key == "naming" && (s.Value.StartsWith("snake", StringComparison.Ordinal) || s.Value.StartsWith("kebab", StringComparison.Ordinal)))
                      || (model is not null && adapter is INamingAdapter naming && naming.WritesSeparatedNames(model));
        return new Restore(previous);
    }

    /// <summary>The index in <paramref name="names"/> of the property that holds member <paramref name="member"/>, or -1;
    /// among equals, the first (or the last, <paramref name="last"/>, as a reader that keeps the last duplicate does).</summary>
    public static int Find(IReadOnlyList<string> names, string member, bool last = false)
    {
        foreach (var comparison in new[] { StringComparison.Ordinal, StringComparison.OrdinalIgnoreCase })
            if (IndexOf(names, n => string.Equals(n, member, comparison), last) is var at and >= 0)
                return at;
        var bare = Bare(member);
        return _separators ? IndexOf(names, n => string.Equals(Bare(n), bare, StringComparison.OrdinalIgnoreCase), last) : -1;
    }

    private static int IndexOf(IReadOnlyList<string> names, Func<string, bool> match, bool last)
    {
        for (var k = 0; k < names.Count; k++)
        {
            var i = last ? names.Count - 1 - k : k;
            if (match(names[i]))
                return i;
        }
        return -1;
    }

    private static string Bare(string name) => name.Replace("_", "").Replace("-", "");

    private sealed class Restore(bool previous) : IDisposable
    {
        public void Dispose() => _separators = previous;
    }
}
