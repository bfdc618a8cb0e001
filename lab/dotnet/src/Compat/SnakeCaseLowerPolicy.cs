using System.Text.Json;

namespace JsonLab.Compat;

/// <summary>
/// JsonNamingPolicy.SnakeCaseLower for .NET Core 3.1's in-box System.Text.Json, which predates it (compiled everywhere so
/// the tests can check it against the real one): a word starts at an upper-case letter after a lower-case letter or
/// digit, or before a lower-case letter ("OSVersion" is "os_version").
/// </summary>
public sealed class SnakeCaseLowerPolicy : JsonNamingPolicy
{
    public override string ConvertName(string name)
    {
        var result = new System.Text.StringBuilder(name.Length + 8);
        for (var i = 0; i < name.Length; i++)
        {
            var c = name[i];
            var startsWord = i > 0 && char.IsUpper(c)
                && (char.IsLower(name[i - 1]) || char.IsDigit(name[i - 1]) || (i + 1 < name.Length && char.IsLower(name[i + 1])));
            if (startsWord && name[i - 1] != '_')
                result.Append('_');
            result.Append(char.ToLowerInvariant(c));
        }
        return result.ToString();
    }
}
