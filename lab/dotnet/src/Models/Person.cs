namespace JsonLab.Models;

/// <summary>Write-up 003's entity (updateaman/JsonSerializerVsJsonConvert @ 8d6e107): PascalCase, no attributes.</summary>
public class Person
{
    public string Name { get; set; } = "";
    public int Age { get; set; }
    public DateTime DateOfBirth { get; set; }
    public bool IsMarried { get; set; }
    public string[] Children { get; set; } = [];
}
