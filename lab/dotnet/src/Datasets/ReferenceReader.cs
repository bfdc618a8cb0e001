using System.Text.Json;

namespace JsonLab.Datasets;

/// <summary>
/// Reads a dataset into a model with one fixed reader (System.Text.Json, case-insensitive names), independent of
/// the variant under test. Serialize cells serialize this value, so a library that cannot read (Jil on .NET 9+)
/// can still be measured writing, and every library writes the same objects.
/// </summary>
public static class ReferenceReader
{
    private static readonly JsonSerializerOptions Options = new() { PropertyNameCaseInsensitive = true };

    /// <summary>The dataset as an instance of <paramref name="type"/>.</summary>
    public static object Read(Payload payload, Type type) =>
        JsonSerializer.Deserialize(payload.Text, type, Options)
        ?? throw new LabException($"dataset '{payload.Name}' is JSON null", "a dataset must hold a value of its model");
}
