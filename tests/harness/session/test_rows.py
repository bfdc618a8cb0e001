"""A cell's row is read back as the analysis reads it (ResultRow.from_dict) before it is written: numbers from a lab
that no row can hold fail the cell with a message naming the field, instead of a row results.jsonl cannot be read
back with, or a traceback that ends the run."""

from __future__ import annotations

from harness.config.isa import IsaLevel
from harness.model.cells import Cell
from harness.model.folder.environment_record import BuildWhere
from harness.model.folder.records import RowStatus
from harness.model.outcomes import CellOutcome, Statistics, Verification
from harness.session.processes.probe import LevelProbe
from harness.session.processes.rows import RowContext, failed_row, measured_row

CELL = Cell("000", "stj", "g", "stj", "dotnet", "stj", "small", "serialize", "native")
LEVEL = IsaLevel("native", "x64", "every feature", {})


def _context(where: BuildWhere | None = None) -> RowContext:
    probe = LevelProbe("native", {}, {"avx2": True}, "avx2", "run")
    return RowContext("run", CELL, "1", "default", probe, emulated=False, where=where)


def _outcome(**fields: object) -> CellOutcome:
    stats = Statistics(n=5, mean_ns=100.0, median_ns=100.0, stddev_ns=1.0, ci99_lower_ns=99.0, ci99_upper_ns=101.0,
                       min_ns=98.0, max_ns=102.0)  # fmt: skip
    return CellOutcome({"library": "System.Text.Json", **fields}, stats, Verification("passed", "matches"), {})


def test_a_measured_cell_gives_an_ok_row_with_the_backend_identity():
    row = measured_row(
        _context({"backend": "docker", "image": "jsonlab/dotnet:10", "image_id": "sha256:1"}), _outcome(), LEVEL
    )
    assert (row.status, row.mean_ns, row.backend, row.image, row.host) == (
        RowStatus.OK,
        100.0,
        "docker",
        "jsonlab/dotnet:10",
        None,
    )


def test_a_lab_number_no_row_can_hold_fails_the_cell_naming_the_field():
    row = measured_row(_context(), _outcome(allocated_bytes_per_op=-5.0), LEVEL)
    assert row.status == RowStatus.FAILED
    assert "lab dotnet: its output gives no valid result row" in (row.error or "")
    assert "allocated_bytes_per_op" in (row.error or "")


def test_a_lab_text_where_a_number_belongs_fails_the_cell_naming_the_field():
    row = measured_row(_context(), _outcome(payload_bytes="12"), LEVEL)
    assert row.status == RowStatus.FAILED and "ResultRow.payload_bytes = '12': not an integer" in (row.error or "")


def test_a_failed_cell_keeps_its_error():
    assert failed_row(_context(), "the build failed").error == "the build failed"
