namespace JsonLab.Models;

/// <summary>Which CLR shape a variant binds a dataset's model to.</summary>
public enum ModelBinding
{
    /// <summary>The model as declared: PascalCase properties, no attributes.</summary>
    Plain,

    /// <summary>A twin whose properties carry camelCase JsonPropertyName attributes.</summary>
    CamelAnnotated,
}
