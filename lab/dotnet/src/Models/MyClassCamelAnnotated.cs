using System.Text.Json.Serialization;

namespace JsonLab.Models;

/// <summary>
/// Twin of <see cref="MyClass"/> whose properties carry camelCase <c>JsonPropertyName</c>
/// attributes, so case-sensitive System.Text.Json binds a camel payload by exact match
/// (write-up 000, the "_Annotated" rows).
/// </summary>
public class MyClassCamelAnnotated
{
    [JsonPropertyName("myInteger")]
    public int MyInteger { get; set; }

    [JsonPropertyName("myString")]
    public string? MyString { get; set; }

    [JsonPropertyName("myList")]
    public List<string>? MyList { get; set; }
}
