namespace JsonLab.Models;

/// <summary>Which CLR shape a variant binds a dataset's model to.</summary>
public enum ModelBinding
{
    /// <summary>The model as declared.</summary>
    Plain,

    /// <summary>A twin whose properties carry camelCase JsonPropertyName attributes.</summary>
    CamelAnnotated,

    /// <summary>A twin marked for JsonSrcGen, which generates code per type at compile time.</summary>
    JsonSrcGen,

    /// <summary>No model: the library's own document tree (JsonDocument, JsonNode, JToken), for any dataset with a
    /// canonical digest (Adapters/IDocumentAdapter.cs).</summary>
    Document,
}
