using System.Globalization;

namespace JsonLab;

/// <summary>Parsed "verb --key value ..." command line; keys may repeat.</summary>
public sealed class CliArgs
{
    private readonly Dictionary<string, List<string>> _options = new();

    /// <summary>The verb (first argument).</summary>
    public string Verb { get; }

    private CliArgs(string verb) => Verb = verb;

    /// <summary>Parses the process arguments.</summary>
    public static CliArgs Parse(string[] args)
    {
        if (args.Length == 0)
            throw new LabException("no verb given", "usage: JsonLab env|list|verify|run|once [--option value ...]");
        var parsed = new CliArgs(args[0]);
        for (var i = 1; i < args.Length; i++)
        {
            var key = args[i];
            if (!key.StartsWith("--", StringComparison.Ordinal) || i + 1 >= args.Length)
                throw new LabException($"expected '--option value' at '{key}'", "options are written as --name value");
            if (!parsed._options.TryGetValue(key[2..], out var values))
                parsed._options[key[2..]] = values = [];
            values.Add(args[++i]);
        }
        return parsed;
    }

    /// <summary>All values given for an option (empty when absent).</summary>
    public IReadOnlyList<string> All(string key) => _options.TryGetValue(key, out var v) ? v : [];

    /// <summary>The single value of a required option.</summary>
    public string Required(string key) =>
        All(key) is [var value] ? value : throw new LabException($"{Verb} needs exactly one --{key}", $"add --{key} <value>");

    /// <summary>The value of an optional option, or a fallback.</summary>
    public string Optional(string key, string fallback) => All(key) is [var value, ..] ? value : fallback;

    /// <summary>An optional integer option from <paramref name="min"/> to <paramref name="max"/> (by default a positive one);
    /// anything else is an error whose hint names the range.</summary>
    public int? OptionalInt(string key, int min = 1, int max = int.MaxValue) =>
        All(key) is [var value, ..]
            ? int.TryParse(value, NumberStyles.Integer, CultureInfo.InvariantCulture, out var n) && n >= min && n <= max
                ? n
                : throw new LabException($"--{key} must be {Range(min, max)}, got '{value}'", $"pass --{key} {Math.Min(max, Math.Max(min, 10))}, for example")
            : null;

    private static string Range(int min, int max) =>
        (min, max) switch
        {
            (1, int.MaxValue) => "a positive integer",
            (0, int.MaxValue) => "an integer of 0 or more",
            _ => $"an integer from {min} to {max}",
        };
}
