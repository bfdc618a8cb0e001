using JsonLab.Datasets;
using JsonLab.Models;

namespace JsonLab.Adapters;

/// <summary>
/// One serializer variant: a library with fixed settings and one payload form.
/// Bind* methods do all preparation (options, encodings) up front and return the
/// operation alone, so a benchmark measures exactly one library call.
/// </summary>
public interface ISerializerAdapter
{
    /// <summary>Stable variant name used by the harness and in result rows.</summary>
    string Variant { get; }

    /// <summary>Library name as published (e.g. System.Text.Json).</summary>
    string Library { get; }

    /// <summary>Version of the library assembly actually loaded.</summary>
    string LibraryVersion { get; }

    /// <summary>One sentence on the settings, for list output and reports.</summary>
    string Description { get; }

    /// <summary>Input form for deserialize and output form for serialize.</summary>
    PayloadForm Form { get; }

    /// <summary>Which CLR twin of the dataset's model this variant binds to.</summary>
    ModelBinding Binding { get; }

    /// <summary>Returns the deserialize operation for a prepared payload.</summary>
    Func<T?> BindDeserialize<T>(Payload payload);

    /// <summary>Returns the serialize operation for a value; it yields a string or byte[] per <see cref="Form"/>.</summary>
    Func<object> BindSerialize<T>(T value);
}
