using JsonLab.Probes;

namespace JsonLab.Verbs;

/// <summary>`env`: prints the runtime, effective ISA, GC mode and library versions as JSON.</summary>
public static class EnvVerb
{
    public static int Execute(CliArgs args)
    {
        Console.WriteLine(LabJson.Write(RuntimeProbe.Capture()));
        return 0;
    }
}
