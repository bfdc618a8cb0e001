using JsonLab;
using JsonLab.Verbs;

// The lab contract: one executable, five verbs (see DESIGN.md "The lab contract"), plus `generate` for datasets.
try
{
    var parsed = CliArgs.Parse(args);
    return parsed.Verb switch
    {
        "env" => EnvVerb.Execute(parsed),
        "list" => ListVerb.Execute(parsed),
        "verify" => VerifyVerb.Execute(parsed),
        "run" => RunVerb.Execute(parsed),
        "paired" => PairedVerb.Execute(parsed),
        "once" => OnceVerb.Execute(parsed),
        "shot" => ShotVerb.Execute(parsed),
        "generate" => GenerateVerb.Execute(parsed),
        "conformance" => ConformanceVerb.Execute(parsed),
        _ => throw new LabException($"unknown verb '{parsed.Verb}'", "valid verbs: env, list, verify, run, paired, once, shot, conformance, generate"),
    };
}
catch (LabException e)
{
    Console.Error.WriteLine($"error: {e.Message}");
    Console.Error.WriteLine($"hint: {e.Hint}");
    return 2;
}
