"""Run settings on the real .NET lab, read back inside each measured process (the JIT's own event, GCSettings), on
today's runtime and on .NET Core 3.1, which reads only the COMPlus_ prefix. Tiered compilation off takes effect; Server
GC does not in a cell pinned to one CPU (the runtime falls back to workstation GC with one processor), and the readback
fails those cells instead of publishing workstation numbers as Server GC."""

import json
import shutil

import pytest

from harness.backends.native import NativeBackend
from harness.config.defaults import EXPERIMENTS_DIR
from harness.config.isa import load_isa_table
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run

pytestmark = pytest.mark.skipif(
    shutil.which("dotnet") is None, reason="dotnet SDK not installed: the real lab cannot run"
)


def test_tiered_compilation_off_is_read_back_and_server_gc_on_one_cpu_fails_its_cells(tmp_path):
    experiments = tmp_path / "experiments"
    shutil.copytree(EXPERIMENTS_DIR, experiments)
    path = next(experiments.glob("001-*.toml"))
    text = path.read_text().replace(
        'lab = "dotnet"\n', 'lab = "dotnet"\nrun_settings = { tiered_compilation = "off" }\n', 1
    )
    path.write_text(
        text.replace(
            'baseline = "single-newtonsoft"\n', 'baseline = "single-newtonsoft"\nrun_settings = { gc = "server" }\n', 1
        )
    )
    options = RunOptions(
        profile="smoke",
        experiments=("001",),
        benchmarks=("single-stj-default", "file-stj-default"),
        isa_levels=("native",),
        runtimes=("3.1.3", "10.0.12"),
        experiments_dir=experiments,
        results_dir=tmp_path / "results",
        pin_harness=False,
        calibrate=False,
    )
    summary = execute_run(options, NativeBackend(load_isa_table().all_switch_names()))
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    rows = [r for r in rows if not r.get("replaced")]
    assert {(r["group"], r["runtime_requested"]) for r in rows} == {
        (group, runtime) for group in ("single", "file") for runtime in ("3.1.3", "10.0.12")
    }
    for row in rows:
        assert row["run_settings_checked"] == "read back"
        assert row["run_settings_readback"]["tiered_compilation"] is False, row["runtime_requested"]
        assert row["run_settings_readback"]["gc_server"] is False  # one CPU: workstation GC, whatever was asked
        if row["group"] == "file":
            assert row["cell_id"].endswith("[tiered_compilation=off]") and row["status"] in ("ok", "unverified"), row
        else:
            assert row["cell_id"].endswith("[gc=server,tiered_compilation=off]") and row["status"] == "failed"
            assert row["error"] == (
                "run settings did not take effect in the measured process: "
                "gc=server (gc_server is false, expected true)"
            )
