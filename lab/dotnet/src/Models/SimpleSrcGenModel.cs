using JsonSrcGen;

[assembly: JsonArray(typeof(JsonLab.Models.SimpleSrcGenModel))]

namespace JsonLab.Models;

/// <summary>
/// The JsonSrcGen twin of <see cref="SimpleModel"/>: JsonSrcGen generates its reader and writer at compile time
/// for classes marked [Json], and the array converter from the assembly attribute above (write-up 004 did the same).
/// </summary>
[Json]
public class SimpleSrcGenModel
{
    [JsonName("testInt")]
    public int TestInt { get; set; }

    [JsonName("testString")]
    public string TestString { get; set; } = "";

    [JsonName("testBool")]
    public bool TestBool { get; set; }
}
