"""Single shots on the real labs: write-up 007's three cells (System.Text.Json and Newtonsoft.Json in the .NET lab,
JSON.parse in the Node lab), its 115 MB input swapped for the self-test document so the test stays short. Each process
runs the `shot` verb alone, verifies after its timed call, and reports the resident set around it; the report gives
the cross-language time and memory verdicts."""

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO, edited_experiments, on_selftest
from tests.e2e.real_run import run_real

pytestmark = pytest.mark.skipif(
    shutil.which("dotnet") is None or shutil.which("npm") is None, reason="needs the .NET SDK and npm"
)


def test_each_single_shot_cell_runs_alone_verified_with_its_resident_set_and_gets_verdicts(tmp_path):
    experiments = edited_experiments(tmp_path, e007=on_selftest)
    summary, rows = run_real(
        tmp_path, experiments, "007", ("stj", "newtonsoft", "node-json-parse"), ("10.0.12", "24.21.0")
    )
    assert {r["benchmark"] for r in rows} == {"stj", "newtonsoft", "node-json-parse"}
    for row in rows:
        assert row["status"] == "ok" and row["measure"] == "single-shot", row.get("error")
        assert row["design"] == "interleaved" and row["process_cells"] is None  # one cell per fresh process
        assert row["n"] == 1 and row["median_ns"] > 0 and row["engine_version"] == "jsonlab single-shot 1"
        assert row["warmup_dataset"] == "coordinates-selftest" and row["warmup_calls"] == 2
        # both real readings (> 1 MiB); not peak >= before: the kernel folds its per-thread RSS counters in lazily, so
        # a peak read after the calls can sit a few pages below a resident set read before them
        assert row["peak_rss_of"] == "timed-calls" and min(row["peak_rss_bytes"], row["rss_before_bytes"]) > 1 << 20
        log = (summary.directory / row["log_path"]).read_text()
        assert " shot " in log.splitlines()[0] and "verification passed" in log
    report = subprocess.run(
        [sys.executable, "-m", "analysis", "report", str(summary.directory)], cwd=REPO, capture_output=True, text=True
    )
    assert report.returncode == 0, report.stderr
    text = (summary.directory / "report" / "report.md").read_text()
    assert "Method: **single shot**" in text and "| Json | Node.js | memory |" in text
