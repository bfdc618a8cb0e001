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

    /// <summary>Informational version without the "+commit" suffix or trailing words, else the assembly version.</summary>
    public static string Of(Assembly assembly)
    {
        var info = assembly.GetCustomAttribute<AssemblyInformationalVersionAttribute>()?.InformationalVersion;
        if (string.IsNullOrEmpty(info))
            return assembly.GetName().Version?.ToString() ?? "unknown";
        return info.Split('+', ' ')[0];
    }
}
