"""A run whose profile names the paired-pipelined design but that has no CPU beside the lab's to warm on (a one-CPU
machine, a host whose engine has one: `--warm-cpuset none`) runs as paired and says so, in its first lines and its
environment.json; named with --design, the same run is refused before anything is measured."""

import dataclasses
import json
import pathlib

import pytest

from harness.backends.fake import FakeBackend
from harness.model.errors import PinningError
from harness.planning.run_plan import PROFILES_FILE
from harness.planning.warm_cpus import NO_WARM_CPU
from harness.session.runner import execute_run
from tests.conftest import FIXTURES


def _pipelined_smoke(tmp_path: pathlib.Path) -> pathlib.Path:
    """The profiles file with the smoke profile's design the pipelined one (as the default profile's)."""
    text = PROFILES_FILE.read_text()
    start = text.index("[profiles.smoke]")
    at = text.index('design = "paired"', start)
    assert at < text.index("[profiles.", start + 1), "the smoke profile names its design"
    path = tmp_path / "profiles.toml"
    path.write_text(text[:at] + 'design = "paired-pipelined"' + text[at + len('design = "paired"') :])
    return path


def test_a_profiles_pipelined_design_with_nowhere_to_warm_runs_as_paired_and_says_so(smoke_options, tmp_path, capsys):
    options = dataclasses.replace(
        smoke_options,
        design=None,
        profiles_file=_pipelined_smoke(tmp_path),
        warm_cpuset=NO_WARM_CPU,
        run_id="one-cpu",
        benchmarks=("SystemTextCaseSensitive_Camel", "NewtonSoftJson_Camel"),
    )
    backend = FakeBackend(FIXTURES / "dotnet-cell")
    summary = execute_run(options, backend)
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    assert rows and {r["design"] for r in rows if r["measure"] == "steady"} == {"paired"} and backend.handovers == []
    said = "the profile's paired-pipelined design runs as paired: this run has no CPU beside the lab's"
    assert said in capsys.readouterr().err
    environment = json.loads((summary.directory / "environment.json").read_text())
    assert environment["design_note"].startswith(said) and environment["warm_cpus"] == []
    with pytest.raises(PinningError, match="no CPU beside the lab's"):
        execute_run(
            dataclasses.replace(options, design="paired-pipelined", run_id="named"),
            FakeBackend(FIXTURES / "dotnet-cell"),
        )
    assert not (tmp_path / "results" / "named").exists() and not (summary.directory.parent / "named").exists()
