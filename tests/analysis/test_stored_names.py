"""Names a run folder stored that have changed since: the host backend stored as "native" (in environment.json and
every row) still loads and reports, showing the value as stored; the C++ lab stored as "native" reads as today's `cpp`
where the run did not keep its labs."""

import json
import shutil

from analysis.compute.load import load_run
from analysis.render.writer import write_report
from analysis.tools.sample import write_sample
from harness.model.folder.run_folder import ENVIRONMENT_FILE, KEPT_LABS_DIR, REPORT_DIR, RESULTS_FILE
from harness.model.folder.stored_names import stored_backend


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


def _with_lab(run_dir, to, lab):
    shutil.copytree(run_dir, to, ignore=shutil.ignore_patterns(REPORT_DIR))
    rows = [json.loads(line) for line in (to / RESULTS_FILE).read_text().splitlines() if line.strip()]
    (to / RESULTS_FILE).write_text("".join(json.dumps({**row, "lab": lab}, sort_keys=True) + "\n" for row in rows))
    return to


def test_a_run_that_did_not_keep_its_labs_reads_the_former_cpp_lab_name_as_today_s(fake_run, tmp_path):
    old = _with_lab(fake_run, tmp_path / "old-run", "native")
    shutil.rmtree(old / KEPT_LABS_DIR, ignore_errors=True)
    assert set(load_run(old).rows["lab"]) == {"cpp"}  # read against today's lab/, where the lab is lab/cpp


def test_a_run_that_kept_its_labs_keeps_the_names_it_measured_under(fake_run, tmp_path):
    kept = _with_lab(fake_run, tmp_path / "kept-run", "native")
    (kept / KEPT_LABS_DIR / "native").mkdir(parents=True, exist_ok=True)
    (kept / KEPT_LABS_DIR / "native" / "lab.toml").write_text('name = "native"\n')
    assert set(load_run(kept).rows["lab"]) == {"native"}
