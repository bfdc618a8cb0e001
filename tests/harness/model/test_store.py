import json
import os

import pytest

from harness.model.errors import OutputDirError, ResumeError, SchemaError
from harness.model.folder.records import ResultRow
from harness.model.folder.store import RunStore
from tests.harness.model.test_records import BASE


def test_the_last_row_of_a_cells_round_wins(tmp_path):
    store = RunStore.create(tmp_path, "run1")
    store.append(ResultRow(**BASE, status="failed", error="boom"))
    store.append(ResultRow(**BASE, status="ok", mean_ns=3.0, verification_status="passed"))
    assert store.rows()["e:b@native#1"].status == "ok"
    assert len((tmp_path / "run1" / "results.jsonl").read_text().splitlines()) == 2


def test_a_row_from_another_schema_version_says_what_to_run(tmp_path):
    store = RunStore.create(tmp_path, "run1")
    (tmp_path / "run1" / "results.jsonl").write_text(json.dumps({"schema_version": 99, "cell_id": "x"}) + "\n")
    with pytest.raises(SchemaError, match="schema_version 99") as error:
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


# -- damaged results.jsonl (harness/model/folder/result_lines.py)
# ---------------------------------------------------------


def _two_rounds(tmp_path):
    store = RunStore.create(tmp_path, "run1")
    store.append(ResultRow(**BASE, status="ok", mean_ns=3.0, verification_status="passed"))
    store.append(
        ResultRow(
            **{**BASE, "round_index": 2, "round_count": 3}, status="ok", mean_ns=4.0, verification_status="passed"
        )
    )
    return store, tmp_path / "run1" / "results.jsonl"


@pytest.mark.parametrize(
    "torn, why",
    [
        (b'{"schema_version": 1, "cell_id": "e:b@nat', "not JSON"),  # what a run killed mid-write leaves
        (b'{"cell_id": "\xff\xfe"}', "not UTF-8 at byte 13"),
        (b"[1, 2]", "a JSON list, not an object"),
    ],
)
def test_a_torn_last_line_is_left_out_by_a_reader_and_moved_aside_by_a_resume(tmp_path, torn, why):
    store, results = _two_rounds(tmp_path)
    with results.open("ab") as f:
        f.write(torn)
    rows = store.rows()
    assert len(rows) == 2 and store.torn_line is not None and store.torn_line.number == 3
    assert why in store.torn_line.describe("results.jsonl")
    moved = store.set_aside_torn_line()
    assert "results.jsonl line 3 could not be read" in moved and "measured again" in moved
    assert (tmp_path / "run1" / "results.quarantine.jsonl").read_bytes() == torn + b"\n"
    assert len(results.read_bytes().splitlines()) == 2 and store.set_aside_torn_line() == ""
    store.append(
        ResultRow(
            **{**BASE, "round_index": 3, "round_count": 3}, status="ok", mean_ns=5.0, verification_status="passed"
        )
    )
    assert len(store.rows()) == 3 and store.torn_line is None, "a resumed run appends after the readable lines"


def test_an_unreadable_line_before_the_last_is_an_error_naming_it_and_the_fix(tmp_path):
    from harness.model.folder.result_lines import DamagedResultsError

    store, results = _two_rounds(tmp_path)
    lines = results.read_bytes().splitlines()
    results.write_bytes(lines[0] + b"\n\xff garbage\n" + lines[1] + b"\n")
    with pytest.raises(DamagedResultsError, match="line 2 cannot be read .*not the last line") as error:
        store.rows()
    assert "just resume" in error.value.hint


def test_the_history_skips_an_earlier_runs_damaged_bytes(tmp_path):
    from harness.planning.history import _read_rows

    _, results = _two_rounds(tmp_path)
    with results.open("ab") as f:
        f.write(b'{"cell_id": "\xff"}\n')
    assert len(_read_rows(results)) == 2
