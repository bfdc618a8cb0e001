using System.Reflection;

namespace JsonLab.Adapters;

/// <summary>Which version of a library this lab runs: the NuGet package version, or the assembly's own for in-box libraries.</summary>
public static class LibraryVersions
{
    /// <summary>The version of package <paramref name="id"/> this lab was built with (stamped at build time from its PackageReference).</summary>
    public static string OfPackage(string id) =>
        typeof(LibraryVersions).Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .FirstOrDefault(a => a.Key == $"package:{id}")?.Value
        ?? throw new LabException($"no package version stamped for '{id}'", "reference the package in JsonLab.csproj and rebuild");

    /// <summary>
    /// The version of package <paramref name="id"/> as its loaded assembly says (the one containing
    /// <paramref name="type"/>): read in-process, so a build asked for another version of the package (lab.toml
    /// [library_versions]) shows the version that actually runs. The build-time stamp where the assembly states none.
    /// </summary>
    public static string OfLoaded(Type type, string id)
    {
        var info = type.Assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        return string.IsNullOrEmpty(info) ? OfPackage(id) : info.Split('+', ' ')[0];
    }

    /// <summary>Informational version without the "+commit" suffix or trailing words, else the assembly version.</summary>
    public static string Of(Assembly assembly)
    {
        var info = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        if (string.IsNullOrEmpty(info))
            return assembly.GetName().Version?.ToString() ?? "unknown";
        return info.Split('+', ' ')[0];
    }
}
