"""A lab's JSON files as typed records (harness/model/folder/lab_files.py): process.json read by one reader for the
normalizers and the analysis, every failure a CellError naming the file and the key."""

from __future__ import annotations

import json

import pytest

from harness.model.errors import CellError
from harness.model.folder.lab_files import ProcessRecord, read_process, read_run_process

PAIRED = {"schema_version": 1, "cells": ["a", "b"], "start_to_main_ms": 40.0, "bursts_ms": 900.0, "joint_prewarm_ms": 1}


def test_a_process_file_reads_as_its_record_and_its_absence_as_none(tmp_path):
    assert read_process(tmp_path) is None, "process.json is optional: a native process has none"
    (tmp_path / "process.json").write_text(json.dumps({**PAIRED, "lab_own_key": {"x": 1}}))
    record = read_process(tmp_path)
    assert record == ProcessRecord(cells=["a", "b"], start_to_main_ms=40.0, bursts_ms=900.0, joint_prewarm_ms=1)


@pytest.mark.parametrize(
    "content, says",
    [
        (b"\xff{", "process.json is not valid UTF-8 JSON"),
        (b"{torn", "process.json is not valid UTF-8 JSON"),
        (b"[" * 100_000, "process.json is not valid UTF-8 JSON"),  # deeper than the parser recurses
        (b"[1]", "process.json is not a JSON object"),
        (json.dumps({**PAIRED, "bursts_ms": "900"}).encode(), "process.json: 'bursts_ms' is '900', not a number"),
        (json.dumps({**PAIRED, "rounds_compilations": [1, None]}).encode(), "'rounds_compilations' is [1, None]"),
        (b'{"handover_wait_ms": Infinity}', "'handover_wait_ms' is inf, not a finite number"),
    ],
)
def test_a_process_file_that_does_not_fit_is_a_cell_error_naming_it(tmp_path, content, says):
    (tmp_path / "process.json").write_bytes(content)
    with pytest.raises(CellError, match=says.replace("[", r"\[").replace("]", r"\]")):
        read_process(tmp_path)


def test_a_row_naming_a_process_folder_outside_its_run_folder_is_refused(tmp_path):
    run = tmp_path / "run"
    (run / "raw" / "p").mkdir(parents=True)
    (tmp_path / "process.json").write_text(json.dumps(PAIRED))
    assert read_run_process(run, "raw/p") is None
    with pytest.raises(CellError, match="names a process folder outside it: '../'"):
        read_run_process(run, "../")
