"""What the same cells cost in earlier runs: per cell, the wall seconds one round of it took in the newest run folder
that measured it with the same design and job, so a plan's estimate (and the budget's cost of the groups still to
come) is learned from this machine rather than modelled.

A cell's cost per round is the median over its rounds of its processes' wall time (all attempts of a round: a
replaced process cost time too; a shared process counts each cell's share), scaled by that run's gap factor: the time
from one process's start to the next one's over the processes' own wall time, which covers what happens between them
(peak-RSS readings, the harness's bookkeeping, `docker exec`). Pauses longer than a process (calibrations, cold-start
cells, a stopped and resumed run) are left out of the factor. A cell recorded as skipped (an ISA level its build has no
switch for, a variant its lab lacks) costs nothing. Runs whose design or job differ are not read: their processes are
other processes. The newest of the runs read also gives the phases around the measurements (its timeline.jsonl):
preparing the labs, and the conformance pass and report that `just run-all` adds.
"""

from __future__ import annotations

import dataclasses
import datetime
import json
import pathlib
import statistics
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from harness.model.cells import JobSettings, without_handover_settings
from harness.model.errors import SchemaError
from harness.model.folder.field_types import field_hints, type_problem
from harness.model.folder.records import REPLICATED, SINGLE_SHOT, ResultRow
from harness.model.folder.run_folder import RESULTS_FILE, RUN_FILE, TIMELINE_FILE
from harness.model.folder.run_records import CONFORMANCE, PREPARE, REPORT, RunRecord, TimelineRecord
from harness.model.json_value import JsonMapping, JsonObject, as_number, as_text
from harness.planning.throughput import ProcessCosts, process_costs

#: A gap between two processes' starts longer than this many times the first one's wall time (plus a few seconds of
#: start-up) is a pause, not the cost of a process.
PAUSE_FACTOR = 2.0
PAUSE_SLACK_S = 3.0

ONCE_PER_RUN = (PREPARE, CONFORMANCE, REPORT)


@dataclass(frozen=True)
class CostHistory:
    """Learned costs: cell id → wall seconds per round, and the runs they were read from (newest first)."""

    seconds: dict[str, float]
    runs: tuple[str, ...]
    phases: dict[str, float] = dataclasses.field(default_factory=dict)  # phase → seconds, in the newest run read
    process: ProcessCosts | None = None  # what a handed-over process cost on each side, in the newest run read

    def known(self, cell_ids: Iterable[str]) -> list[str]:
        """The cells of `cell_ids` this history has a cost for."""
        return [c for c in cell_ids if c in self.seconds]

    def describe(self, cell_ids: Iterable[str]) -> str:
        """'learned for 150 of 300 cells from run native-isa-2026-11-26': where an estimate's costs came from."""
        ids = list(cell_ids)
        known = self.known(ids)
        runs = ", ".join(self.runs[:3]) + (f" and {len(self.runs) - 3} more" if len(self.runs) > 3 else "")
        plural = "s" if len(self.runs) > 1 else ""
        return f"learned for {len(known)} of {len(ids)} cells from run{plural} {runs}"


def load_history(
    results_dir: pathlib.Path, design: str, job: JobSettings, cell_ids: Iterable[str]
) -> CostHistory | None:
    """Per cell of `cell_ids`, its cost in the newest run under `results_dir` that measured it with this design and
    job; None when no run did."""
    wanted = set(cell_ids)
    seconds: dict[str, float] = {}
    used: list[str] = []
    phases: dict[str, float] = {}
    process: ProcessCosts | None = None
    for folder in _runs_newest_first(results_dir):
        if not wanted - seconds.keys():
            break
        if not _same_method(folder, design, job):
            continue
        rows = _read_rows(folder / RESULTS_FILE)
        costs = run_cell_costs(rows)
        new = {cell: s for cell, s in costs.items() if cell in wanted and cell not in seconds}
        if new:
            seconds.update(new)
            if not used:
                phases = _phases(folder / TIMELINE_FILE)
                process = process_costs(rows, folder.name)
            used.append(folder.name)
    return CostHistory(seconds, tuple(used), phases, process) if seconds else None


def run_cell_costs(rows: Sequence[JsonMapping]) -> dict[str, float]:
    """Cell id → wall seconds per round in one run's rows (see the module's docstring; a row's value of another type
    than the result row's reads as absent)."""
    factor = gap_factor(rows)
    per_round: dict[str, dict[int, float]] = defaultdict(lambda: defaultdict(float))
    skipped: set[str] = set()
    for row in rows:
        if row.get("measure") not in REPLICATED:
            continue
        if duration := as_number(row.get("duration_s")):
            per_round[str(row["cell_id"])][int(as_number(row.get("round_index")) or 0)] += duration
        elif row.get("status") == "skipped":
            skipped.add(str(row["cell_id"]))
    costs = {cell: factor * statistics.median(rounds.values()) for cell, rounds in per_round.items()}
    return {**{cell: 0.0 for cell in skipped}, **costs}


def gap_factor(rows: Iterable[JsonMapping]) -> float:
    """Start-to-next-start time over the processes' own wall time, pauses left out; 1 when it cannot be read."""
    processes: dict[str, list[float]] = {}  # a process's [start, wall seconds]
    for row in rows:
        duration, started = as_number(row.get("duration_s")), as_text(row.get("started_at"))
        if row.get("measure") not in REPLICATED or not duration or not started:
            continue
        key = (
            as_text(row.get("log_path")) or as_text(row.get("raw_path")) or f"{row['cell_id']}#{row.get('round_index')}"
        )
        try:
            start = datetime.datetime.fromisoformat(started).timestamp()
        except ValueError:  # not a time: the row's process left out of the factor
            continue
        entry = processes.setdefault(key, [start, 0.0])
        entry[0] = min(entry[0], start)
        entry[1] += duration
    ordered = sorted(processes.values())
    gaps = walls = 0.0
    for (start, wall), (next_start, _) in zip(ordered, ordered[1:]):
        gap = next_start - start
        if 0 < gap <= PAUSE_FACTOR * wall + PAUSE_SLACK_S:
            gaps += gap
            walls += wall
    return max(1.0, gaps / walls) if walls > 0 else 1.0


def _runs_newest_first(results_dir: pathlib.Path) -> list[pathlib.Path]:
    """Run folders (those with rows), the most recently written first."""
    if not results_dir.is_dir():
        return []
    folders = [p for p in results_dir.iterdir() if p.is_dir() and not p.is_symlink() and (p / RESULTS_FILE).is_file()]
    return sorted(folders, key=lambda p: (p / RESULTS_FILE).stat().st_mtime, reverse=True)


#: How many of the newest runs a plan reads for its variants' single-shot call costs.
RATE_RUNS = 20


#: The runtime of a call rate learned over every runtime of a variant (used where its own runtime has none).
ANY_RUNTIME = "*"


def load_call_rates(results_dir: pathlib.Path) -> dict[tuple[str, str, str, str], float]:
    """(lab, variant, operation, runtime) → nanoseconds per input byte of one single-shot call, the median over that
    variant's single-shot rows on that runtime (and over all its runtimes, as runtime ANY_RUNTIME) in the newest run
    that has any (of the newest RATE_RUNS runs, whatever their design or job: a single shot does not depend on them). A
    plan costs a single-shot process of a new input from it."""
    rates: dict[tuple[str, str, str, str], float] = {}
    for folder in _runs_newest_first(results_dir)[:RATE_RUNS]:
        found: dict[tuple[str, str, str, str], list[float]] = defaultdict(list)
        for row in _read_rows(folder / RESULTS_FILE):
            median, size = as_number(row.get("median_ns")), as_number(row.get("payload_bytes"))
            if row.get("measure") == SINGLE_SHOT and median and size:
                rate = median / size
                variant = (str(row.get("lab")), str(row.get("variant")), str(row.get("operation")))
                found[(*variant, str(row.get("runtime_requested")))].append(rate)
                found[(*variant, ANY_RUNTIME)].append(rate)
        for key, values in found.items():
            rates.setdefault(key, statistics.median(values))
    return rates


def _same_method(folder: pathlib.Path, design: str, job: JobSettings) -> bool:
    """True when the run at `folder` used this design and exactly this job (run.json), but for the settings only a
    handed-over process is given (its extra rounds fill time the lab's CPU would have waited: the pace is the same)."""
    try:
        run = RunRecord.from_dict(json.loads((folder / RUN_FILE).read_bytes().decode("utf-8")), str(folder / RUN_FILE))
    except (OSError, ValueError, RecursionError, SchemaError):  # unreadable, or not a run.json: not read
        return False
    return run.design == design and without_handover_settings(run.job) == without_handover_settings(job)


def _phases(path: pathlib.Path) -> dict[str, float]:
    """Seconds of each phase of a run's timeline that happens once per run (the last of each: a resumed run's
    preparation, a report rendered again)."""
    phases: dict[str, float] = {}
    for line in _readable_lines(path) if path.is_file() else []:
        try:
            record = TimelineRecord.from_dict(json.loads(line), str(path))
        except (ValueError, RecursionError, SchemaError):  # a torn or damaged line costs itself
            continue
        if record.phase in ONCE_PER_RUN:
            phases[record.phase] = record.seconds
    return phases


def _readable_lines(path: pathlib.Path) -> list[str]:
    """The lines of an earlier run's file that decode as UTF-8 (a damaged byte costs its line, never the plan)."""
    lines = []
    for raw in path.read_bytes().split(b"\n"):
        try:
            lines.append(raw.decode("utf-8"))
        except UnicodeDecodeError:
            continue
    return lines


#: The fields of a result row the history reads; a row whose value of one does not fit ResultRow's type for it is
#: skipped (a full ResultRow.from_dict per row costs 0.3 ms, seconds over the runs a plan reads).
READ_FIELDS = (
    "cell_id",
    "measure",
    "status",
    "duration_s",
    "round_index",
    "started_at",
    "log_path",
    "raw_path",
    "median_ns",
    "payload_bytes",
    "lab",
    "variant",
    "operation",
    "runtime_requested",
)


def _read_rows(path: pathlib.Path) -> list[JsonObject]:
    """The rows of a results.jsonl; lines that do not parse (a run killed mid-write, a damaged byte) or whose fields
    do not fit a result row are skipped."""
    hints = field_hints(ResultRow)
    rows: list[JsonObject] = []
    for line in _readable_lines(path):
        try:
            row = json.loads(line)
        except (ValueError, RecursionError):
            continue
        if (
            isinstance(row, dict)
            and isinstance(row.get("cell_id"), str)
            and not any(type_problem(row[name], hints[name]) for name in READ_FIELDS if name in row)
        ):
            rows.append(row)
    return rows
