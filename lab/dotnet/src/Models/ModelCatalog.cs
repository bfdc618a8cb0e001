namespace JsonLab.Models;

/// <summary>One model a dataset can declare, with the CLR type for each binding that exists.</summary>
public sealed record ModelEntry(string Name, Type Plain, Type? CamelAnnotated = null)
{
    /// <summary>The CLR type for a binding, or null when no such twin is registered.</summary>
    public Type? TypeFor(ModelBinding binding) => binding switch
    {
        ModelBinding.Plain => Plain,
        ModelBinding.CamelAnnotated => CamelAnnotated,
        _ => null,
    };
}

/// <summary>
/// The registry of models named in datasets/manifest.json ("model" field).
/// Adding a dataset with a new shape means one model class and one line here.
/// </summary>
public static class ModelCatalog
{
    public static readonly IReadOnlyList<ModelEntry> All =
    [
        new("MyClass", typeof(MyClass), typeof(MyClassCamelAnnotated)),
        new("Employee", typeof(Employee)),
        new("List<Employee>", typeof(List<Employee>)),
    ];

    /// <summary>Finds a model by its manifest name, or throws a LabException listing valid names.</summary>
    public static ModelEntry Find(string name) =>
        All.FirstOrDefault(m => m.Name == name)
        ?? throw new LabException(
            $"unknown model '{name}'",
            $"valid models: {string.Join(", ", All.Select(m => m.Name))}; register new ones in Models/ModelCatalog.cs");

    /// <summary>Resolves the CLR type a variant binds to, or explains which twin is missing.</summary>
    public static Type Resolve(string name, ModelBinding binding) =>
        Find(name).TypeFor(binding)
        ?? throw new LabException(
            $"model '{name}' has no {binding} twin",
            "add the twin class and register it in Models/ModelCatalog.cs, or pick a variant with the plain binding");
}
