"""ISA levels of a runtime that cannot read its instruction sets back (the Node lab) and of levels it has no switch
for."""

from harness.config.isa import load_isa_table
from harness.config.labs import load_labs
from harness.session.probe import NOT_APPLICABLE, UNVERIFIABLE, probe_lab


class NodeLikeBackend:
    """Answers env and list as lab/reference-node does: no ISA readback, the V8 flags it was started with."""

    def __init__(self):
        self.calls = []

    def call(self, lab, args, switches):
        self.calls.append((args[0], dict(switches)))
        if args[0] == "list":
            return {"variants": [{"variant": "json-string"}]}
        flags = switches.get("JSONLAB_V8_FLAGS", "").split()
        return {
            "runtime": "Node.js",
            "runtime_version": "24.21.0",
            "arch": "x64",
            "isa": {},
            "isa_readback": False,
            "isa_requested_flags": flags,
        }


def test_levels_without_readback_run_labelled_and_levels_without_a_switch_are_not_applicable():
    isa = load_isa_table()
    lab = load_labs()["reference-node"].for_runtime("24.21.0")
    backend = NodeLikeBackend()
    probe = probe_lab(backend, lab, isa.resolve("x64", ["all"]), isa)
    states = {name: level.state for name, level in probe.levels.items()}
    assert states == {
        "native": UNVERIFIABLE,
        "no-avx512": NOT_APPLICABLE,
        "no-avx2": UNVERIFIABLE,
        "sse2": UNVERIFIABLE,
        "scalar": NOT_APPLICABLE,
    }
    assert all(probe.levels[name].runs for name in ("native", "no-avx2", "sse2"))
    assert not probe.levels["scalar"].runs and "has no switch for ISA level 'scalar'" in probe.levels["scalar"].detail
    assert (
        "--no-enable-avx2" in probe.levels["no-avx2"].detail and probe.levels["no-avx2"].isa_effective == UNVERIFIABLE
    )
    # the switches are applied to the probe (so the requested flags are recorded), never for a level with none
    assert (
        "env",
        {"JSONLAB_V8_FLAGS": isa.switches_for("Node.js", "24.21.0", "sse2")["JSONLAB_V8_FLAGS"]},
    ) in backend.calls
    assert not any(args == "env" and "scalar" in str(switches) for args, switches in backend.calls)


def test_dotnet_levels_are_still_verified_by_readback():
    isa = load_isa_table()
    assert isa.has_switches(".NET", "10.0.12", "scalar") and not isa.has_switches("Node.js", "26.10.0", "no-avx512")
