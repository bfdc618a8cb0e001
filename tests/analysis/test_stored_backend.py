"""A run folder written before the host backend had its name stores it as "native" (in environment.json and in every
row): it still loads and reports, showing the value as stored."""

import json
import shutil

from analysis.compute.load import load_run
from analysis.render.writer import write_report
from analysis.tools.sample import write_sample
from harness.model.backend_names import stored_backend
from harness.model.run_folder import ENVIRONMENT_FILE, REPORT_DIR, RESULTS_FILE


def _before_the_rename(run_dir, to):
    shutil.copytree(run_dir, to, ignore=shutil.ignore_patterns(REPORT_DIR))
    environment = json.loads((to / ENVIRONMENT_FILE).read_text())
    (to / ENVIRONMENT_FILE).write_text(json.dumps({**environment, "backend": "native"}, indent=2, sort_keys=True))
    rows = [json.loads(line) for line in (to / RESULTS_FILE).read_text().splitlines() if line.strip()]
    (to / RESULTS_FILE).write_text(
        "".join(json.dumps({**row, "backend": "native"}, sort_keys=True) + "\n" for row in rows)
    )
    return to


def test_a_run_that_stored_the_native_backend_still_loads_and_reports(fake_run, tmp_path):
    old = _before_the_rename(fake_run, tmp_path / "old-run")
    run = load_run(old)
    assert set(run.rows["backend"]) == {"native"} and run.environment.backend == "native"
    assert stored_backend(run.environment.backend) == "host"  # where a decision reads it (harness conformance)
    report = write_report(old).read_text()
    assert "pinned to CPU 0 (native backend)" in report
    assert "backend native)" in write_sample(old, tmp_path / "sample").read_text()
