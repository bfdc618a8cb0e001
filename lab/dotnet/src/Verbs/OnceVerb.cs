using JsonLab.Measurement;

namespace JsonLab.Verbs;

/// <summary>`once`: one cold call of a cell's operation, then exit; for whole-process timing (hyperfine).</summary>
public static class OnceVerb
{
    public static int Execute(CliArgs args)
    {
        var request = CellRequest.From(args);
        var result = OperationBinder.Bind(request.Adapter, request.Payload, request.Operation)();
        // Keep the result observable so the call cannot be elided.
        return result is null ? 3 : 0;
    }
}
