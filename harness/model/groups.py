"""Groups of cells: the key a row belongs to, the rows of each group, the machine time a group used, the states the
stopping rule gives a group, and how an A/A copy of a baseline is named. Read by the run loop and the analysis alike."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from typing import NamedTuple

from harness.model.folder.records import ResultRow


class GroupKey(NamedTuple):
    """The key of a group of cells, whose ratios are taken against one baseline: its ISA level, experiment, group and
    place (the runtime, with the run settings an explanation switched: harness/model/places.py)."""

    isa_level: str
    experiment: str
    group: str
    place: str


#: Group states: still running; every ratio reached the target; a cap was hit first; fixed rounds done; stopped by the
#: run's time budget (harness/session/rounds/budget.py) before its own rule was met.
RUNNING, PRECISE, IMPRECISE, DONE, BUDGET = "running", "precise", "imprecise", "done", "budget"


#: How an A/A copy's benchmark id ends: the baseline's id, then this.
AA_SUFFIX = "~aa"


def is_aa_copy(benchmark: str) -> bool:
    """True for the benchmark id of an A/A copy (with_aa_copies)."""
    return benchmark.endswith(AA_SUFFIX)


def elapsed_s(rows: Iterable[ResultRow]) -> float:
    """Machine time a group has used: each process's wall time, a duet's two processes counted once, and a handed-over
    process's extra rounds and warm-up on the lab's CPU left out (played while the next process warmed, and the end of
    its own warm-up moved there: time the lab's CPU would have waited; a group's time cap counts what it would have
    cost without them)."""
    return sum(
        max((r.duration_s or 0.0) - ((r.extra_rounds_ms or 0.0) + (r.lab_warm_ms or 0.0)) / 1000, 0.0)
        / (2 if r.partner else 1)
        for r in rows
    )


def row_group(row: ResultRow) -> GroupKey:
    """(ISA level, experiment, group, runtime) of a row: the same key as harness.designs.group_key of its cell."""
    return GroupKey(row.isa_requested, row.experiment, row.group, row.runtime_requested)


def rows_by_group(rows: Iterable[ResultRow]) -> dict[GroupKey, list[ResultRow]]:
    """Rows keyed by (ISA level, experiment, group, runtime)."""
    groups: dict[GroupKey, list[ResultRow]] = defaultdict(list)
    for row in rows:
        groups[row_group(row)].append(row)
    return groups
