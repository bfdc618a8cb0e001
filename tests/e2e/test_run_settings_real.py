"""Run settings on the real .NET lab, read back inside each measured process (the JIT's own event, GCSettings), on
today's runtime and on .NET Core 3.1, which reads only the COMPlus_ prefix. Tiered compilation off takes effect; Server
GC does not in a cell pinned to one CPU (the runtime falls back to workstation GC with one processor), and the readback
fails those cells instead of publishing workstation numbers as Server GC."""

import shutil

import pytest

from tests.conftest import after_lab_line, edited_experiments
from tests.e2e.real_run import run_real

pytestmark = pytest.mark.skipif(
    shutil.which("dotnet") is None, reason="dotnet SDK not installed: the real lab cannot run"
)


def test_tiered_compilation_off_is_read_back_and_server_gc_on_one_cpu_fails_its_cells(tmp_path):
    single = 'baseline = "single-newtonsoft"\n'

    def edit(text):
        text = after_lab_line('run_settings = { tiered_compilation = "off" }\n')(text)
        return text.replace(single, single + 'run_settings = { gc = "server" }\n', 1)

    experiments = edited_experiments(tmp_path, e001=edit)
    _, rows = run_real(tmp_path, experiments, "001", ("single-stj-default", "file-stj-default"), ("3.1.3", "10.0.12"))
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
