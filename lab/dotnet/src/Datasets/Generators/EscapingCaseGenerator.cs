using System.Text.Json;
using JsonLab.Escaping;

namespace JsonLab.Datasets.Generators;

/// <summary>Write-up 002's escaping test strings: --count is the length, --item the index of '&lt;' (or -1); one JSON string.</summary>
public sealed class EscapingCaseGenerator : IDatasetGenerator
{
    public string Name => "escaping-case";
    public string Description => "write-up 002: one of corefx PR #41845's 27 NeedsEscaping test strings (Random(42)), as a JSON string";

    public byte[] Generate(int count, int seed, string? item = null)
    {
        var index = int.TryParse(item, out var at) ? at : -1;
        var found = EscapingCases.All(seed).Where(c => c.Length == count && c.NegativeIndex == index).ToList();
        return found.Count == 1
            ? JsonSerializer.SerializeToUtf8Bytes(found[0].Text)
            : throw new LabException($"no escaping case of length {count} with '<' at {index}", "lengths: 1, 2, 4, 7, 8, 9, 15, 16, 17, 32, 100; '<' positions only for 1, 7 and 8");
    }
}
