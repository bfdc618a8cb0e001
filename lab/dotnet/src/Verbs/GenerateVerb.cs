using JsonLab.Datasets.Generators;

namespace JsonLab.Verbs;

/// <summary>`generate --generator NAME --count N --seed S [--item NAME] --out FILE`: writes one generated dataset.</summary>
public static class GenerateVerb
{
    public static int Execute(CliArgs args)
    {
        var generator = DatasetGenerators.Find(args.Required("generator"));
        var count = args.OptionalInt("count") ?? throw new LabException("generate needs --count", "add --count 1000, for example");
        var seed = args.OptionalInt("seed") ?? throw new LabException("generate needs --seed", "add --seed 4, for example");
        var item = args.All("item") is [var one] ? one : null;
        var bytes = generator.Generate(count, seed, item);
        var path = Path.GetFullPath(args.Required("out"));
        Directory.CreateDirectory(Path.GetDirectoryName(path)!);
        File.WriteAllBytes(path, bytes);
        Console.Error.WriteLine($"wrote {path}: {generator.Name}{(item is null ? "" : $" {item}")}, {count} items, seed {seed}, {bytes.Length} bytes");
        return 0;
    }
}
