#if !LEGACY_RUNTIME
using System.Text.Json.Serialization;

namespace JsonLab.Adapters;

/// <summary>
/// The System.Text.Json source-generation contexts of the models declared as data, two per datasets/models/*.toml
/// space: <see cref="Camel"/> (camelCase names, like <see cref="SimpleModelJsonContext"/>: the stj-sourcegen-camel
/// variants consult them for a type their own context does not list) and <see cref="Declared"/> (the model file's own
/// [sourcegen] options, System.Text.Json's defaults when it gives none: the stj-sourcegen variants). Filled by
/// Models/Declared/DeclaredModels.g.cs, written by the harness.
/// </summary>
public static partial class SourceGenContexts
{
    public static readonly IReadOnlyList<JsonSerializerContext> Camel = CollectCamel();

    public static readonly IReadOnlyList<JsonSerializerContext> Declared = CollectDeclared();

    // (partial methods without a body cannot become delegates: one collector each)
    private static List<JsonSerializerContext> CollectCamel()
    {
        var contexts = new List<JsonSerializerContext>();
        AddCamel(contexts);
        return contexts;
    }

    private static List<JsonSerializerContext> CollectDeclared()
    {
        var contexts = new List<JsonSerializerContext>();
        AddDeclared(contexts);
        return contexts;
    }

    static partial void AddCamel(List<JsonSerializerContext> contexts);

    static partial void AddDeclared(List<JsonSerializerContext> contexts);
}
#endif
