namespace JsonLab.Adapters;

/// <summary>The input/output form a variant works on; names match the result row's payload_form.</summary>
public enum PayloadForm
{
    /// <summary>A .NET string (UTF-16).</summary>
    String,

    /// <summary>UTF-8 bytes (byte[] / ReadOnlySpan&lt;byte&gt;), no BOM.</summary>
    Utf8Bytes,
}
