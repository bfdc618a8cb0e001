#if !LEGACY_RUNTIME
using System.Text.Json.Serialization;

namespace JsonLab.Adapters;

/// <summary>
/// The System.Text.Json source-generation contexts of the models declared as data (one per datasets/models/*.toml
/// space, camelCase like <see cref="SimpleModelJsonContext"/>), which the source-generated adapter consults for a type
/// its own context does not list. Filled by Models/Declared/DeclaredModels.g.cs, written by the harness.
/// </summary>
public static partial class SourceGenContexts
{
    public static readonly IReadOnlyList<JsonSerializerContext> Declared = Collect();

    private static List<JsonSerializerContext> Collect()
    {
        var contexts = new List<JsonSerializerContext>();
        AddDeclared(contexts);
        return contexts;
    }

    static partial void AddDeclared(List<JsonSerializerContext> contexts);
}
#endif
