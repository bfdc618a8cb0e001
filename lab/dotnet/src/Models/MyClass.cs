namespace JsonLab.Models;

/// <summary>Write-up 000's model: PascalCase auto-properties, no attributes.</summary>
public class MyClass
{
    public int MyInteger { get; set; }

    public string? MyString { get; set; }

    public List<string>? MyList { get; set; }
}
