using System.Reflection;

namespace JsonLab.Adapters;

/// <summary>Reads the version of an assembly as loaded, not as referenced.</summary>
public static class LibraryVersions
{
    /// <summary>Informational version without the "+commit" suffix, else the assembly version.</summary>
    public static string Of(Assembly assembly)
    {
        var info = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        if (string.IsNullOrEmpty(info))
            return assembly.GetName().Version?.ToString() ?? "unknown";
        var plus = info.IndexOf('+');
        return plus < 0 ? info : info[..plus];
    }
}
