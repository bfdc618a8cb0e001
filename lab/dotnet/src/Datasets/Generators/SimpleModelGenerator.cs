using System.Globalization;
using System.Text;
using Bogus;
using JsonLab.Models;

namespace JsonLab.Datasets.Generators;

/// <summary>
/// Write-up 004's input: Bogus SimpleModel (TestBool = Random.Bool(), TestInt = Random.Int() over the whole int
/// range, TestString = Name.FullName()) written as the write-up's SimpleModel.ToString() did:
/// "[" + objects joined by "," + "]", names testInt/testString/testBool, no whitespace, no escaping.
/// The write-up ran Bogus unseeded; here the seed is fixed.
/// </summary>
public sealed class SimpleModelGenerator : IDatasetGenerator
{
    public string Name => "simple-models";
    public string Description => "write-up 004: Bogus SimpleModel array, written like SimpleModel.ToString() joined into a JSON array";

    public byte[] Generate(int count, int seed, string? item = null)
    {
        var faker = new Faker<SimpleModel>()
            .UseSeed(seed)
            .RuleFor(m => m.TestBool, f => f.Random.Bool())
            .RuleFor(m => m.TestInt, f => f.Random.Int())
            .RuleFor(m => m.TestString, f => f.Name.FullName());
        var text = new StringBuilder("[");
        foreach (var (model, i) in faker.Generate(count).Select((m, i) => (m, i)))
        {
            if (model.TestString.Any(c => c is '"' or '\\' || char.IsControl(c)))
                throw new LabException($"generated name '{model.TestString}' would need JSON escaping", "the write-up's ToString() does not escape: pick another seed");
            text.Append(i == 0 ? "" : ",").Append(FormattableString.Invariant(
                $"{{\"testInt\":{model.TestInt},\"testString\":\"{model.TestString}\",\"testBool\":{(model.TestBool ? "true" : "false")}}}"));
        }
        return Encoding.UTF8.GetBytes(text.Append(']').ToString());
    }
}
