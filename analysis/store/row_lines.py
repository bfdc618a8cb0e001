"""A run's lines of the store's `rows` table: one per result row (one process-level replicate of one cell), as
load_run reads results.jsonl for the report: the last row per cell and round, a process whose warm-up was cut short
set aside as 'skipped' with its reason, a lab renamed since read under today's name. Each keeps its identity (cell,
round, experiment, benchmark, variant, lab, runtime, ISA level, library …), its status and its timings; the lists and
tables a row also holds (bursts, ISA flags, settings) stay in the run folder."""

from __future__ import annotations

import pandas as pd

from analysis.store.run_entry import SqlValue, sql_value
from harness.model.folder.records import row_key

#: The columns of `rows` after run_id and row_key, each a field of the result row (harness/model/folder/records.py).
ROW_FIELDS = (
    "cell_id",
    "round_index",
    "round_count",
    "partner",
    "replaced",
    "status",
    "error",
    "experiment",
    "benchmark",
    "group",
    "baseline",
    "lab",
    "variant",
    "dataset",
    "operation",
    "measure",
    "isa_requested",
    "isa_effective",
    "runtime_requested",
    "runtime",
    "runtime_version",
    "language",
    "library",
    "library_version",
    "engine_version",
    "design",
    "backend",
    "host",
    "image_id",
    "cpuset",
    "verification_status",
    "started_at",
    "duration_s",
    "n",
    "mean_ns",
    "median_ns",
    "stddev_ns",
    "ci99_lower_ns",
    "ci99_upper_ns",
    "ci99_half_width_ns",
    "min_ns",
    "max_ns",
    "allocated_bytes_per_op",
    "payload_bytes",
    "total_operations",
    "invocation_count",
    "process_cells",
    "bursts_ms",
    "prepare_median_ns",
    "peak_rss_bytes",
    "cpu_other_ms",
    "steal_ms",
)
#: Every column of `rows`, in the order row_lines gives them.
ROW_COLUMNS = ("run_id", "row_key", *ROW_FIELDS)


def row_lines(run_id: str, rows: pd.DataFrame) -> list[tuple[SqlValue, ...]]:
    """One line of `rows` per row of load_run's frame, keyed by the row's own key (cell, round, partner, replaced)."""
    lines = []
    for row in rows[list(ROW_FIELDS)].itertuples(index=False):
        values = [sql_value(value) for value in row]
        fields = dict(zip(ROW_FIELDS, values))
        partner, replaced = fields["partner"], fields["replaced"]
        key = row_key(
            str(fields["cell_id"]),
            int(fields["round_index"] or 0),
            str(partner) if partner is not None else None,
            int(replaced) if replaced is not None else None,
        )
        lines.append((run_id, key, *values))
    return lines
