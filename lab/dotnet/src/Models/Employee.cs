namespace JsonLab.Models;

/// <summary>Write-up 001's model: PascalCase auto-properties, no attributes.</summary>
public class Employee
{
    public int FileId { get; set; }

    public string? Username { get; set; }

    public IEnumerable<string>? Roles { get; set; }
}
