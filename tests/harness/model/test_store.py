import json
import os

import pytest

from harness.model.errors import OutputDirError, ResumeError, SchemaError
from harness.model.records import ResultRow
from harness.model.store import RunStore

from tests.harness.model.test_records import BASE


def test_the_last_row_of_a_cells_round_wins(tmp_path):
    store = RunStore.create(tmp_path, "run1")
    store.append(ResultRow(**BASE, status="failed", error="boom"))
    store.append(ResultRow(**BASE, status="ok", mean_ns=3.0, verification_status="passed"))
    assert store.rows()["e:b@native#1"].status == "ok"
    assert len((tmp_path / "run1" / "results.jsonl").read_text().splitlines()) == 2


def test_a_row_from_another_schema_version_says_what_to_run(tmp_path):
    store = RunStore.create(tmp_path, "run1")
    (tmp_path / "run1" / "results.jsonl").write_text(json.dumps({"schema_version": 8, "cell_id": "x"}) + "\n")
    with pytest.raises(SchemaError, match="schema_version 8") as error:
        store.rows()
    assert "just run-all" in error.value.hint


@pytest.mark.skipif(os.geteuid() == 0, reason="root can write anywhere; the read-only folder is not read-only for root")
def test_an_unwritable_results_folder_is_refused_before_anything_runs(tmp_path):
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(OutputDirError, match="cannot write results"):
            RunStore.create(tmp_path / "results", "run1")
    finally:
        tmp_path.chmod(0o700)


def test_a_results_folder_that_is_a_file_is_refused(tmp_path):
    (tmp_path / "results").write_text("not a folder")
    with pytest.raises(OutputDirError, match="cannot write results") as error:
        RunStore.create(tmp_path / "results", "run1")
    assert "--results-dir" in error.value.hint


def test_creating_an_existing_run_asks_for_resume(tmp_path):
    RunStore.create(tmp_path, "run1")
    with pytest.raises(ResumeError, match="already exists") as error:
        RunStore.create(tmp_path, "run1")
    assert "--resume" in error.value.hint
