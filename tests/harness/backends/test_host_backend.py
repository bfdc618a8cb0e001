"""The host backend with real child processes (a tiny Python stand-in for a lab): pinning, usage, failures."""

import dataclasses
import json
import pathlib
import sys

from harness.backends.base import CellRequest
from harness.backends.host import HostBackend
from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell, JobSettings
from harness.normalize.common import peak_rss_bytes

BUSY = "import time\nt = time.process_time()\nwhile time.process_time() - t < 0.3: pass\n"


def _request(tmp_path: pathlib.Path, script: str, name: str, timeout_s: float = 30) -> CellRequest:
    lab = LabSpec("stand-in", tmp_path, "Python", "bdn", (), (), (sys.executable, "-c", script), {})
    cell = Cell("000", name, "g", name, "stand-in", "v", "ds", "deserialize", "native")
    return CellRequest(lab, cell, tmp_path, tmp_path, tmp_path / f"{name}.log", JobSettings(), {}, "0", timeout_s)


def test_a_process_reports_its_own_cpu_time_and_what_else_its_cpu_did(tmp_path):
    [run] = HostBackend(set()).run_cells([_request(tmp_path, BUSY, "busy")])
    assert run.error is None
    assert run.usage.lab_cpu_s >= 0.3 and run.usage.wall_s >= run.usage.lab_cpu_s * 0.9
    assert run.usage.cpu_other_ms is not None and run.usage.involuntary_context_switches is not None
    assert "taskset -c 0" in (tmp_path / "busy.log").read_text()


def test_a_lab_error_line_becomes_the_cells_error_and_the_others_still_finish(tmp_path):
    failing = "import sys\nprint('error: the dataset is gone'); print('hint: restore it'); sys.exit(2)"
    runs = HostBackend(set()).run_cells([_request(tmp_path, failing, "bad"), _request(tmp_path, BUSY, "good")])
    assert "the dataset is gone" in str(runs[0].error) and "restore it" in runs[0].error.hint
    assert runs[1].error is None


def test_a_process_over_its_timeout_is_killed_and_reported(tmp_path):
    [run] = HostBackend(set()).run_cells([_request(tmp_path, "import time; time.sleep(30)", "slow", timeout_s=0.5)])
    assert "timed out" in str(run.error) and run.usage.wall_s < 10


# A stand-in lab whose `once --report-rss true` prints its peak RSS, as the lab contract's `once` does.
REPORTS_RSS = (
    "import sys\n" "if '--report-rss' in sys.argv:\n" "    print('peak_rss_bytes 12345678'); print('cpus_allowed 0')\n"
)


def test_a_steady_cell_with_peak_rss_runs_reads_them_after_its_process_into_rss_json(tmp_path):
    request = dataclasses.replace(_request(tmp_path, REPORTS_RSS, "rss"), peak_rss_runs=2)
    [run] = HostBackend(set()).run_cells([request])
    assert run.error is None
    assert json.loads((tmp_path / "rss.json").read_text()) == {
        "peak_rss_bytes": [12345678, 12345678],
        "cpus_allowed": ["0", "0"],
    }
    log = (tmp_path / "rss.log").read_text()
    assert log.count("once --datasets") == 2 and "--report-rss true" in log
    assert peak_rss_bytes(tmp_path) == 12345678


def test_a_failed_peak_rss_run_leaves_the_timed_cell_standing_and_says_why_in_its_log(tmp_path):
    fails_rss = "import sys\nsys.exit(3 if '--report-rss' in sys.argv else 0)"
    request = dataclasses.replace(_request(tmp_path, fails_rss, "norss"), peak_rss_runs=1)
    [run] = HostBackend(set()).run_cells([request])
    assert run.error is None
    assert not (tmp_path / "rss.json").exists() and peak_rss_bytes(tmp_path) is None
    assert "# peak RSS not read: the peak-RSS run exited with code 3" in (tmp_path / "norss.log").read_text()


def test_no_peak_rss_runs_unless_the_profile_asks(tmp_path):
    [run] = HostBackend(set()).run_cells([_request(tmp_path, REPORTS_RSS, "plain")])
    assert run.error is None and not (tmp_path / "rss.json").exists()
