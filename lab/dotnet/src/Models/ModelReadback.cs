using System.Reflection;
#if !LEGACY_RUNTIME
using System.Text.Json;
using System.Text.Json.Serialization;
using JsonLab.Adapters;
#endif

namespace JsonLab.Models;

/// <summary>
/// What the compiled model is, read back from its CLR types for `list` (the harness compares it with the model file:
/// a model file's [construction] and [sourcegen] must be what was built): how each class the model reaches is
/// constructed, and the options of the declared source-generation context that lists it.
/// </summary>
public static class ModelReadback
{
    /// <summary>Each class the type reaches in the lab's own assembly, with "positional" (no parameterless constructor,
    /// one that takes parameters), "init" (a property set only by an initializer) or "settable".</summary>
    public static Dictionary<string, string> Construction(Type root)
    {
        var found = new Dictionary<string, string>();
        Walk(root, found);
        return found;
    }

    private static void Walk(Type type, Dictionary<string, string> found)
    {
        type = Nullable.GetUnderlyingType(type) ?? type;
        if (type.IsArray)
        {
            Walk(type.GetElementType()!, found);
            return;
        }
        if (type.IsGenericType)
        {
            foreach (var argument in type.GetGenericArguments())
                Walk(argument, found);
            return;
        }
        if (!type.IsClass || type.Assembly != typeof(ModelReadback).Assembly || found.ContainsKey(type.Name))
            return;
        var properties = type.GetProperties(BindingFlags.Public | BindingFlags.Instance);
        found[type.Name] = type.GetConstructor(Type.EmptyTypes) is null && type.GetConstructors().Any(c => c.GetParameters().Length > 0)
            ? "positional"
            : properties.Any(IsInitOnly) ? "init" : "settable";
        foreach (var property in properties)
            Walk(property.PropertyType, found);
    }

    private static bool IsInitOnly(PropertyInfo property) =>
        property.SetMethod?.ReturnParameter.GetRequiredCustomModifiers().Any(m => m.FullName == "System.Runtime.CompilerServices.IsExternalInit") == true;

    /// <summary>The options of the declared context that lists <paramref name="root"/>, as a model file's [sourcegen]
    /// writes those that differ from System.Text.Json's defaults ("" for none; null when no declared context lists it).
    /// Its generation mode is not among them: a type whose member has a converter has no fast path in any mode.</summary>
    public static string? SourceGen(Type root)
    {
#if LEGACY_RUNTIME
        return null;
#else
        if (SourceGenContexts.Declared.FirstOrDefault(c => c.GetTypeInfo(root) is not null) is not { } context)
            return null;
        var options = context.Options;
        var said = new List<string>();
        if (Naming(options.PropertyNamingPolicy) is { } naming and not "as_declared") said.Add($"naming={naming}");
        if (options.WriteIndented) said.Add("indented=true");
        if (options.DefaultIgnoreCondition == JsonIgnoreCondition.WhenWritingNull) said.Add("ignore_nulls=true");
        if (options.PropertyNameCaseInsensitive) said.Add("case_insensitive=true");
        if (options.Converters.Any(c => c.GetType().Name.StartsWith("JsonStringEnumConverter", StringComparison.Ordinal))) said.Add("enums_as_strings=true");
        return string.Join(", ", said);
#endif
    }

#if !LEGACY_RUNTIME
    private static string Naming(JsonNamingPolicy? policy) => policy?.ConvertName("AbCd") switch
    {
        null => "as_declared",
        "abCd" => "camelCase",
        "ab_cd" => "snake_case_lower",
        "AB_CD" => "snake_case_upper",
        "ab-cd" => "kebab_case_lower",
        "AB-CD" => "kebab_case_upper",
        var other => $"other ({other})",
    };
#endif
}
