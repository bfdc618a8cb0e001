namespace JsonLab;

/// <summary>An error the user can act on: what went wrong and what to do next.</summary>
public sealed class LabException(string message, string hint) : Exception(message)
{
    /// <summary>One line telling the user what to do about it.</summary>
    public string Hint { get; } = hint;
}
