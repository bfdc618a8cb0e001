namespace JsonLab.Models;

/// <summary>
/// The CLR types one binding of a model uses: <paramref name="Read"/> is what deserialize cells produce,
/// <paramref name="Write"/> what serialize cells consume. They differ where a write-up did (004 reads
/// ICollection&lt;SimpleModel&gt; and writes SimpleModel[]).
/// </summary>
public sealed record ModelShape(Type Read, Type Write)
{
    public ModelShape(Type both) : this(both, both) { }
}

/// <summary>One model a dataset can declare, with its shape for each binding that exists.</summary>
public sealed record ModelEntry(string Name, IReadOnlyDictionary<ModelBinding, ModelShape> Shapes)
{
    public ModelEntry(string name, Type plain) : this(name, new Dictionary<ModelBinding, ModelShape> { [ModelBinding.Plain] = new(plain) }) { }

    /// <summary>The shape for a binding, or null when no such twin is registered.</summary>
    public ModelShape? ShapeFor(ModelBinding binding) => Shapes.GetValueOrDefault(binding);
}

/// <summary>
/// The registry of models named in datasets/manifest.json ("model" field): the hand-written ones below, then the models
/// declared as data (datasets/models/*.toml, "&lt;space&gt;.&lt;root&gt;"), whose classes and entries the harness writes into
/// Models/Declared/ before every build (harness/codegen/csharp.py; the folder is generated, never edited).
/// </summary>
public static partial class ModelCatalog
{
    public static readonly IReadOnlyList<ModelEntry> All = WithDeclared(
    [
        new("MyClass", new Dictionary<ModelBinding, ModelShape>
        {
            [ModelBinding.Plain] = new(typeof(MyClass)),
            [ModelBinding.CamelAnnotated] = new(typeof(MyClassCamelAnnotated)),
        }),
        new("Employee", typeof(Employee)),
        new("List<Employee>", typeof(List<Employee>)),
        new("string", typeof(string)),
        new(nameof(LoginViewModel), typeof(LoginViewModel)),
        new(nameof(Location), typeof(Location)),
        new(nameof(IndexViewModel), typeof(IndexViewModel)),
        new(nameof(MyEventsListerViewModel), typeof(MyEventsListerViewModel)),
        new("Person", typeof(Person)),
        new("List<Person>", typeof(List<Person>)),
        new("SimpleModel[]", new Dictionary<ModelBinding, ModelShape>
        {
            [ModelBinding.Plain] = new(typeof(ICollection<SimpleModel>), typeof(SimpleModel[])),
            [ModelBinding.JsonSrcGen] = new(typeof(SimpleSrcGenModel[])),
        }),
        new(nameof(TwitterSearch), typeof(TwitterSearch)),
        new(nameof(CitmCatalog), typeof(CitmCatalog)),
        new(nameof(CanadaCollection), typeof(CanadaCollection)),
        new(nameof(CoordinatesRoot), typeof(CoordinatesRoot)),
    ]);

    private static List<ModelEntry> WithDeclared(List<ModelEntry> models)
    {
        AddDeclared(models);
        return models;
    }

    /// <summary>Implemented by Models/Declared/DeclaredModels.g.cs when the harness has written it.</summary>
    static partial void AddDeclared(List<ModelEntry> models);

    /// <summary>Why a declared model has no JsonSrcGen twin (a kind JsonSrcGen does not read), by model name.</summary>
    private static readonly Dictionary<string, string> NoJsonSrcGenTwin = CollectNotes();

    private static Dictionary<string, string> CollectNotes()
    {
        var notes = new Dictionary<string, string>();
        AddJsonSrcGenNotes(notes);
        return notes;
    }

    /// <summary>Implemented by Models/Declared/DeclaredModels.g.cs when the harness has written it.</summary>
    static partial void AddJsonSrcGenNotes(Dictionary<string, string> notes);

    /// <summary>Finds a model by its manifest name, or throws a LabException listing valid names.</summary>
    public static ModelEntry Find(string name) =>
        All.FirstOrDefault(m => m.Name == name)
        ?? throw new LabException(
            $"unknown model '{name}'",
            $"valid models: {string.Join(", ", All.Select(m => m.Name))}; register new ones in Models/ModelCatalog.cs");

    /// <summary>Resolves the CLR shape a variant binds to, or explains which twin is missing.</summary>
    public static ModelShape Resolve(string name, ModelBinding binding) =>
        Find(name).ShapeFor(binding)
        ?? throw new LabException(
            $"model '{name}' has no {binding} twin"
            + (binding == ModelBinding.JsonSrcGen && NoJsonSrcGenTwin.TryGetValue(name, out var why) ? $": {why}" : ""),
            "add the twin class and register it in Models/ModelCatalog.cs, or pick a variant with the plain binding");
}
