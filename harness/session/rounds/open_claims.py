"""Which published claims a group of cells decides, and how many of them are still open after its rounds so far.

A claim is read on one group: the group holding its benchmark at the ISA level and runtime the report reads it on
(the published CPU's level when the run measures it, else native; the runtime standing in for the published one,
analysis/compute/verdicts/verdicts.py), with its reference in the same group so both sides share the group's processes.
The claim is open while its measured ratio's 99% interval still straddles an edge of the tolerance band around the
published ratio (harness/model/judging.py: 'inconclusive'), or has no interval yet. Budget priority 'open-claims'
(harness/session/rounds/priority.py) gives rounds to groups with open claims first.

A group at a switched place (an explain run's build with another library version, or a switched run setting) is
steered by the claims of the group it switches a factor of. Claims published on another CPU architecture than the
run's processes report (an arm64 figure on an x64 host, or read in an emulated build), claims across cell dimensions
(ISA levels, runtimes: their sides are in two groups), those the lab cannot reproduce, and claims without a published
ratio steer nothing: they are judged at the end like every other.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from harness.config.cpu_models import load_cpu_table, published_cpu
from harness.model.cells import Cell
from harness.model.experiment import Experiment
from harness.model.folder.records import DEFAULT_RUNTIME, ResultRow, VerificationStatus
from harness.model.groups import GroupKey
from harness.model.judging import INCONCLUSIVE, judge, published_ratio
from harness.model.places import base_runtime, is_switched
from harness.model.stats.decision_forecast import processes_to_decide
from harness.model.stats.pairing import paired_ratio_interval
from harness.planning.designs import group_key
from harness.session.rounds.stopping import measured_replicates


@dataclass(frozen=True)
class ClaimReading:
    """One published time ratio, read on one group: benchmark over reference, published as `published`."""

    benchmark: str
    reference: str
    published: float
    label: str


def claims_by_group(
    experiments: Iterable[Experiment], cells: Iterable[Cell], arch_of: Callable[[Cell], str | None] | None = None
) -> dict[GroupKey, list[ClaimReading]]:
    """The claims each planned group decides (groups that decide none are left out). `arch_of` gives the architecture
    a cell's processes report ("" for an emulated build, None when unknown): a claim published on a CPU of another
    architecture is no reading of this run (the report says "cannot reproduce: not on this host", analysis/compute/
    arch_check.py), so it steers nothing."""
    table = load_cpu_table()
    by_benchmark: dict[tuple[str, str], list[Cell]] = {}
    cells = list(cells)
    for cell in cells:
        if not cell.switched:  # a place switched for an explanation reads no figure of its own
            by_benchmark.setdefault((cell.experiment, cell.benchmark), []).append(cell)
    readings: dict[GroupKey, list[ClaimReading]] = {}
    for experiment in experiments:
        for claim in experiment.claims:
            if claim.cannot_reproduce or claim.across or claim.benchmark == claim.reference:
                continue
            published = published_ratio(claim, experiment.claims, "time")
            planned = by_benchmark.get((experiment.id, claim.benchmark), [])
            if published is None or not planned:
                continue
            hardware = experiment.hardware[claim.hardware]
            levels = {c.isa_level for c in planned}
            level = hardware.isa_level if hardware.isa_level in levels else "native"
            runtimes = list(dict.fromkeys(c.runtime for c in planned))
            runtime = hardware.stand_in(runtimes, runtimes[0] if runtimes else DEFAULT_RUNTIME)
            reading_cell: Cell | None = next(
                (c for c in planned if c.isa_level == level and c.runtime == runtime), None
            )
            if reading_cell is not None and arch_of is not None:
                published_arch = published_cpu(hardware, table).arch
                here = arch_of(reading_cell)
                if published_arch is not None and here is not None and here != published_arch:
                    continue
            references = by_benchmark.get((experiment.id, claim.reference), [])
            if reading_cell is None or not any(group_key(r) == group_key(reading_cell) for r in references):
                continue
            readings.setdefault(group_key(reading_cell), []).append(
                ClaimReading(claim.benchmark, claim.reference, published[0], claim.label)
            )
    return _with_switched_places(readings, cells)


def _with_switched_places(readings: dict[GroupKey, list[ClaimReading]], cells: Iterable[Cell]) -> dict:
    """The readings, and for each group at a switched place (a build with another library version, a switched run
    setting) those of the group it switches a factor of: it reads no figure of its own, but its ratios are compared
    with that group's, so it is steered by the same claims (and gets rounds while they are open)."""
    out = dict(readings)
    for cell in cells:
        base = GroupKey(cell.isa_level, cell.experiment, cell.group, base_runtime(cell.place))
        if is_switched(cell.place) and base in readings:
            out.setdefault(group_key(cell), readings[base])
    return out


def open_claims(readings: list[ClaimReading], rows: list[ResultRow]) -> int:
    """How many of a group's claims its rows do not decide yet."""
    return len(rounds_to_decide(readings, rows))


def rounds_to_decide(readings: list[ClaimReading], rows: list[ResultRow]) -> tuple[float, ...]:
    """Per claim of the group its rows do not decide yet, the further rounds forecast to decide it at the noise its
    processes showed so far (harness/model/stats/decision_forecast.py; math.inf with no interval yet or beyond any run).
    """
    replicates = measured_replicates(rows)
    failed = {r.benchmark for r in rows if r.verification_status == VerificationStatus.FAILED}
    needs: list[float] = []
    for reading in readings:
        if {reading.benchmark, reading.reference} & failed:
            continue  # void: no round will decide it
        interval = paired_ratio_interval(replicates.get(reading.benchmark, []), replicates.get(reading.reference, []))
        if interval is None:
            needs.append(math.inf)
            continue
        if judge(reading.published, interval.estimate, False, interval.lower, interval.upper) == INCONCLUSIVE:
            total = processes_to_decide(reading.published, interval.lower, interval.upper, interval.n)
            needs.append(total - interval.n)
    return tuple(needs)
