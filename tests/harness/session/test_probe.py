import re

import pytest

"""ISA levels of a runtime that cannot read its instruction sets back (the Node lab) and of levels it has no switch
for."""

from harness.config.isa import load_isa_table
from harness.config.lab.labs import load_labs
from harness.session.processes.probe import NOT_APPLICABLE, UNVERIFIABLE, probe_lab


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
            "language": "JavaScript",
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


def test_a_noise_probe_that_measured_no_ratio_says_so_in_words():
    from harness.model.folder.run_records import NoiseProbeRecord
    from harness.session.rounds.noise_probe import describe

    record = NoiseProbeRecord(
        groups=["001/file@no-avx512 on 8.0.0"],
        rounds=3,
        seconds=4.0,
        ratios=0,
        spread_median=None,
        steering_rounds=0,
        other_rounds=0,
        forecast_median_rel_ci=None,
        probed_claims=0,
        inconclusive_probed=0,
        claims=3,
        forecast_inconclusive=None,
        budget_min=1.0,
        target_rel_ci=0.02,
        minutes_for_target=None,
    )
    first, second = describe(record)
    assert first == (
        "noise probe: 1 group × 3 processes (4 s, counted toward their floor): "
        "no ratio measured in two or more processes"
    )
    assert "—" not in first and second == "noise probe: no ratio with a spread yet, so no forecast"


@pytest.mark.parametrize(
    "answer, says",
    [
        ([], "not an object"),
        ({"language": "JavaScript", "runtime": "Node.js", "runtime_version": "24.21.0"}, "has no arch"),
        (
            {"language": "C#", "runtime": ".NET", "runtime_version": 10, "arch": "x64"},
            "its member 'runtime_version': not a string",
        ),
        (
            {"language": "C#", "runtime": ".NET", "runtime_version": "10.0.12", "arch": "x64", "isa": {"avx2": "yes"}},
            "its member 'isa': its member 'avx2': not a boolean or an integer",
        ),
    ],
)
def test_a_lab_env_answer_of_another_shape_is_an_error_naming_the_lab_and_the_key(answer, says):
    from harness.model.errors import HarnessError
    from harness.session.processes.probe import lab_env

    lab = load_labs()["reference-node"].for_runtime("24.21.0")
    with pytest.raises(HarnessError, match=re.escape(f"lab {lab.target}'s `env` answer: {says}")) as raised:
        lab_env(lab, answer)
    assert "docs/lab-contract.md" in raised.value.hint
