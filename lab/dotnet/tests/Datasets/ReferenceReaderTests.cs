using System.Text.Json;
using JsonLab.Datasets;
using JsonLab.Models;
using Xunit;

namespace JsonLab.Tests.Datasets;

/// <summary>The lab's own reader builds, from every dataset, the value System.Text.Json's serializer would build.</summary>
public class ReferenceReaderTests
{
    private static readonly JsonSerializerOptions CaseInsensitive = new() { PropertyNameCaseInsensitive = true };

    public static IEnumerable<object[]> ModelDatasets()
    {
        var dir = TestPayloads.DatasetsDir();
        foreach (var entry in DatasetManifest.Load(dir).Datasets.Where(d => d.Model is not null && TestPayloads.Present(dir, d)))
            foreach (var binding in Enum.GetValues<ModelBinding>())
                if (ModelCatalog.Find(entry.Model!).ShapeFor(binding) is { } shape)
                    foreach (var type in new[] { shape.Read, shape.Write }.Distinct())
                        yield return [entry.Name, binding.ToString(), type.FullName!];
    }

    [Theory]
    [MemberData(nameof(ModelDatasets))]
    public void Reads_every_dataset_as_the_serializer_would(string dataset, string binding, string typeName)
    {
        var payload = TestPayloads.Dataset(dataset);
        var shape = ModelCatalog.Find(payload.Model).ShapeFor(Enum.Parse<ModelBinding>(binding))!;
        var type = new[] { shape.Read, shape.Write }.First(t => t.FullName == typeName);
        var parts = payload.Parts ?? [payload];
        foreach (var part in parts)
        {
            var ours = ReferenceReader.Read(part, type);
            var theirs = JsonSerializer.Deserialize(part.Text, type, CaseInsensitive)!;
            Assert.Equal(theirs.GetType(), ours.GetType());
            Assert.Equal(JsonSerializer.Serialize(theirs, type), JsonSerializer.Serialize(ours, type));
        }
    }

    [Fact]
    public void A_json_null_dataset_is_an_explained_error()
    {
        var error = Assert.Throws<LabException>(() => ReferenceReader.Read(TestPayloads.Of("MyClass", "null"), typeof(MyClass)));
        Assert.Contains("is JSON null", error.Message);
    }
}
