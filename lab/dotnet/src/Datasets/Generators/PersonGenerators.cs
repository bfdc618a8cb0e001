using System.Text;
using System.Text.Json;
using Bogus;
using Person = JsonLab.Models.Person;

namespace JsonLab.Datasets.Generators;

/// <summary>
/// Write-up 003's Bogus Person faker (Name = FullName, Age = Int(1, 100), DateOfBirth = Date.Recent(),
/// IsMarried = Bool(), Children = Lorem.Words(Int(1, 5))), made repeatable: a fixed seed, and Date.Recent
/// counted back from a fixed UTC instant instead of the clock (the write-up's dates were local times of the
/// last day; here they are UTC, written with a 'Z').
/// </summary>
public static class PersonFaker
{
    /// <summary>The instant Date.Recent() counts back from: the write-up's publication day, noon UTC.</summary>
    public static readonly DateTime Reference = new(2024, 12, 2, 12, 0, 0, DateTimeKind.Utc);

    public static List<Person> Generate(int count, int seed) =>
        new Faker<Person>()
            .UseSeed(seed)
            .RuleFor(p => p.Name, f => f.Name.FullName())
            .RuleFor(p => p.Age, f => f.Random.Int(1, 100))
            .RuleFor(p => p.DateOfBirth, f => f.Date.Recent(1, Reference))
            .RuleFor(p => p.IsMarried, f => f.Random.Bool())
            .RuleFor(p => p.Children, f => f.Lorem.Words(f.Random.Int(1, 5)))
            .Generate(count);
}

/// <summary>Write-up 003's "big data": all persons in one array, written by System.Text.Json with default options.</summary>
public sealed class PersonArrayGenerator : IDatasetGenerator
{
    public string Name => "persons";
    public string Description => "write-up 003: Bogus Person list serialized as one array by System.Text.Json defaults (PascalCase)";

    public byte[] Generate(int count, int seed, string? item = null) => JsonSerializer.SerializeToUtf8Bytes(PersonFaker.Generate(count, seed));
}

/// <summary>Write-up 003's "small data": each person its own document, written by System.Text.Json defaults; one per line.</summary>
public sealed class PersonLinesGenerator : IDatasetGenerator
{
    public string Name => "person-lines";
    public string Description => "write-up 003: the same persons, each serialized alone by System.Text.Json defaults, one document per line (JSON Lines)";

    public byte[] Generate(int count, int seed, string? item = null)
    {
        var text = new StringBuilder();
        foreach (var person in PersonFaker.Generate(count, seed))
            text.Append(JsonSerializer.Serialize(person)).Append('\n');
        return Encoding.UTF8.GetBytes(text.ToString());
    }
}
