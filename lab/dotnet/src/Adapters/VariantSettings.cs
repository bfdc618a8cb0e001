namespace JsonLab.Adapters;

/// <summary>One setting a library's variants take from the experiment: its name, the values it may have, what it does.</summary>
public sealed record SettingSpec(string Name, IReadOnlyList<string> Values, string Meaning);

/// <summary>A variant whose library settings an experiment may change (System.Text.Json options, Newtonsoft.Json settings).</summary>
public interface ISettingsAdapter
{
    /// <summary>The settings this variant takes; the same list for every variant of one library.</summary>
    IReadOnlyList<SettingSpec> Settings { get; }

    /// <summary>This variant with the settings applied on top of its own, named <paramref name="variant"/>.</summary>
    ISerializerAdapter With(string variant, IReadOnlyList<KeyValuePair<string, string>> settings);
}

/// <summary>
/// A variant with settings chosen by the experiment is named "&lt;variant&gt;+&lt;setting&gt;=&lt;value&gt;…", settings in
/// alphabetical order (one name per choice; the harness writes it from a benchmark's <c>settings</c> table,
/// docs/experiments.md). Each setting replaces the base variant's own where both set it.
/// </summary>
public static class VariantSettings
{
    public const char Separator = '+';

    /// <summary>The base variant's name and the settings, checked for form and order (not yet against the library).</summary>
    public static (string Base, IReadOnlyList<KeyValuePair<string, string>> Settings) Parse(string name)
    {
        var parts = name.Split(Separator);
        var settings = new List<KeyValuePair<string, string>>();
        foreach (var part in parts.Skip(1))
        {
            var at = part.IndexOf('=');
            if (at <= 0 || at == part.Length - 1 || !IsWord(part[..at]) || !IsWord(part[(at + 1)..]))
                throw new LabException($"'{part}' in variant '{name}' is not a setting", "write <variant>+<setting>=<value>, e.g. stj-default+indented=true");
            settings.Add(new(part[..at], part[(at + 1)..]));
        }
        var ordered = settings.OrderBy(s => s.Key, StringComparer.Ordinal).ToList();
        if (!ordered.SequenceEqual(settings) || ordered.Select(s => s.Key).Distinct().Count() != ordered.Count)
            throw new LabException($"the settings of variant '{name}' repeat or are out of order",
                $"name each setting once, in alphabetical order: {parts[0]}{string.Concat(ordered.Select(s => $"+{s.Key}={s.Value}"))}");
        return (parts[0], settings);
    }

    /// <summary>The base variant with the settings applied, each checked against what its library takes.</summary>
    public static ISerializerAdapter Derive(ISerializerAdapter adapter, string name, IReadOnlyList<KeyValuePair<string, string>> settings)
    {
        if (adapter is not ISettingsAdapter { Settings.Count: > 0 } settable)
            throw new LabException($"variant '{adapter.Variant}' takes no settings (variant '{name}')",
                "settings are offered by the System.Text.Json and Newtonsoft.Json variants: `list` shows each variant's settings");
        foreach (var (key, value) in settings)
        {
            var spec = settable.Settings.FirstOrDefault(s => s.Name == key)
                ?? throw new LabException($"variant '{adapter.Variant}' has no setting '{key}'",
                    $"its settings: {string.Join(", ", settable.Settings.Select(s => s.Name))}");
            if (!spec.Values.Contains(value))
                throw new LabException($"setting '{key}' of variant '{adapter.Variant}' cannot be '{value}'", $"one of: {string.Join(", ", spec.Values)}");
        }
        return settable.With(name, settings);
    }

    /// <summary>"naming=camelCase, indented=true": the settings as the description's tail.</summary>
    public static string Describe(IReadOnlyList<KeyValuePair<string, string>> settings) =>
        string.Join(", ", settings.Select(s => $"{s.Key}={s.Value}"));

    /// <summary>True for "true", false for "false" (the values a yes/no setting takes).</summary>
    public static bool Flag(string value) => value == "true";

    /// <summary>The two values of a yes/no setting.</summary>
    public static readonly IReadOnlyList<string> YesNo = ["false", "true"];

    private static bool IsWord(string text) => text.Length > 0 && text.All(c => c is >= 'a' and <= 'z' or >= 'A' and <= 'Z' or >= '0' and <= '9' or '_' or '-' or '.');
}
