namespace JsonLab.Verification;

/// <summary>
/// How the reference reader and the verifier find a model member's JSON property: its name ignoring case, or, where no
/// property has that name, ignoring case and the separators of snake and kebab case ("my_integer", "MY-INTEGER" for
/// MyInteger), so a variant whose naming setting writes those forms is verified field by field. Only the expected side
/// is read this way: a variant that binds nothing still fails.
/// </summary>
public static class MemberNames
{
    /// <summary>The index in <paramref name="names"/> of the property that holds member <paramref name="member"/>, or -1.</summary>
    public static int Find(IReadOnlyList<string> names, string member)
    {
        for (var i = names.Count - 1; i >= 0; i--)
            if (string.Equals(names[i], member, StringComparison.OrdinalIgnoreCase))
                return i;
        var bare = Bare(member);
        for (var i = names.Count - 1; i >= 0; i--)
            if (string.Equals(Bare(names[i]), bare, StringComparison.OrdinalIgnoreCase))
                return i;
        return -1;
    }

    private static string Bare(string name) => name.Replace("_", "").Replace("-", "");
}
