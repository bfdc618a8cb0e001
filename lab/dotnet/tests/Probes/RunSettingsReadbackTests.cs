using System.Runtime;
using JsonLab.Probes;

namespace JsonLab.Tests.Probes;

public class RunSettingsReadbackTests
{
    [Fact]
    public void Every_setting_the_lab_declares_is_read_back_from_this_process()
    {
        var settings = RunSettingsReadback.Capture();

        Assert.Equal(GCSettings.IsServerGC, settings["gc_server"]);
        // The test host runs with the runtime's defaults: tiered compilation on, read from the JIT's own event (null
        // would mean the event never came).
        Assert.Equal(true, settings["tiered_compilation"]);
    }

    [Fact]
    public void The_env_verb_reports_the_settings()
    {
        var env = RuntimeProbe.Capture();

        var settings = Assert.IsType<SortedDictionary<string, object?>>(env["settings"]);
        Assert.Equal(new[] { "gc_server", "tiered_compilation" }, settings.Keys);
    }
}
