using System.Diagnostics;
using System.Text;
using JsonLab.Conformance;

namespace JsonLab.Verbs;

/// <summary>
/// `conformance --files DIR --parser NAME --out FILE [--start N]`: parses every *.json file of DIR (ordinal name order),
/// from the N-th on, with one parser, and appends one JSON line per file to FILE, flushed before the next file starts:
/// {"file", "outcome": "accepted"|"rejected", "detail", "ms"}, after a {"ready": true} line once the parser is warm. A file that crashes the process (a stack overflow cannot be
/// caught in .NET) or never returns leaves no line: the harness counts the lines, records that file as crashed or hung,
/// and starts the verb again after it.
/// </summary>
public static class ConformanceVerb
{
    public static int Execute(CliArgs args)
    {
        var parser = ConformanceParsers.Find(args.Required("parser"));
        var directory = args.Required("files");
        if (!Directory.Exists(directory))
            throw new LabException($"no conformance folder at {directory}", "pass --files pointing at datasets/conformance/test_parsing");
        var files = Directory.GetFiles(directory, "*.json").Select(Path.GetFileName).OrderBy(name => name, StringComparer.Ordinal).ToList();
        var startText = args.Optional("start", "0");
        if (!int.TryParse(startText, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out var start))
            throw new LabException($"--start must be a file index (0 or more), got '{startText}'", "pass --start 0 to begin with the first file");
        using var output = new StreamWriter(args.Required("out"), append: true, new UTF8Encoding(false));
        // Warm the parser on a valid document, then say so: the harness allows the start-up its own time limit and holds
        // every file after this line to the much shorter per-file one.
        try { parser.Parse(Encoding.UTF8.GetBytes("[0]")); } catch (Exception) { /* a parser that rejects it still gets its files */ }
        output.WriteLine("""{"ready":true}""");
        output.Flush();
        foreach (var name in files.Skip(start))
        {
            var bytes = File.ReadAllBytes(Path.Combine(directory, name!));
            var clock = Stopwatch.StartNew();
            string outcome, detail;
            try
            {
                parser.Parse(bytes);
                (outcome, detail) = ("accepted", "");
            }
            catch (Exception e)
            {
                (outcome, detail) = ("rejected", $"{e.GetType().Name}: {e.Message.Split('\n')[0].Trim()}");
            }
            var line = LabJson.Write(new { File = name, Outcome = outcome, Detail = detail, Ms = Math.Round(clock.Elapsed.TotalMilliseconds, 3) });
            output.WriteLine(line.Replace("\n", "").Replace("\r", ""));
            output.Flush();
        }
        return 0;
    }
}
