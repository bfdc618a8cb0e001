namespace JsonLab.Verification;

/// <summary>Differing fields found by a comparison: all are counted, the first few are kept verbatim.</summary>
public sealed class MismatchList(int keep = 20)
{
    private readonly List<string> _kept = [];

    /// <summary>Total number of differing fields.</summary>
    public int Count { get; private set; }

    /// <summary>The first differing fields, as "path: expected X, got Y".</summary>
    public IReadOnlyList<string> Kept => _kept;

    /// <summary>Records one differing field.</summary>
    public void Add(string path, string expected, string actual)
    {
        Count++;
        if (_kept.Count < keep)
            _kept.Add($"{(path.Length == 0 ? "$" : path)}: expected {expected}, got {actual}");
    }
}
