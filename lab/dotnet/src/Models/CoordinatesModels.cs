namespace JsonLab.Models;

/// <summary>
/// The cross-language JSON benchmark's model (kostya/benchmarks json/test.cs and json-core/test-core.cs @ ff6c10d): the
/// `coordinates` array of {x, y, z} doubles, PascalCase properties as that code declares them. The document's other
/// members (each entry's name and opts, the top-level info) are not in the model, as there: a typed deserializer skips
/// them, and verification compares the members the model has.
/// </summary>
public class CoordinatesRoot
{
    public List<Coordinate> Coordinates { get; set; } = [];
}

public class Coordinate
{
    public double X { get; set; }
    public double Y { get; set; }
    public double Z { get; set; }
}
