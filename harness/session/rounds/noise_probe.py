"""The noise probe: before a budgeted run shares its rounds, a few groups' first rounds tell how noisy this host is and
what the budget can decide here, printed up front and kept in noise_probe.json for the report.

The probe takes `probe_groups` units spread evenly over the plan (every k-th, so experiments, runtimes and group kinds
mix) and plays their first `probe_rounds` rounds: ordinary rounds, stored as rows and counted toward the floor, so the
probe costs only the order it imposes. From their processes it reads each ratio's between-process spread and each
claim's centre, and forecasts with harness/model/stats/noise_forecast.py the median ratio 99% CI and the inconclusive
claims at the rounds the budget affords (every round's cost from the probed units, the others' estimates scaled by how
the probed ones came out against theirs). A host whose forecast misses the target twice over is told what would help.

A resumed run keeps the first session's probe: its rounds are already rows, and noise_probe.json stays as written.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from functools import partial
from typing import Protocol

from harness.config.experiment.profiles import BudgetSpec
from harness.model.folder.records import DEFAULT_RUNTIME, ResultRow
from harness.model.folder.run_folder import NOISE_PROBE_FILE
from harness.model.folder.run_records import NoiseProbeRecord
from harness.model.groups import GroupKey
from harness.model.stats.noise_forecast import (
    GroupShare,
    NoiseForecast,
    ProbedRatio,
    forecast,
    processes_for,
    scaled_count,
    shared_rounds,
)
from harness.model.stats.pairing import paired_ratios
from harness.model.stats.stats import format_rel_ci, t_quantile
from harness.planning.designs import Unit, group_key, process_groups
from harness.session.processes.session_setup import SessionSetup
from harness.session.rounds.open_claims import ClaimReading
from harness.session.rounds.progress import RunProgress
from harness.session.rounds.stopping import group_ratios, measured_replicates

#: A forecast median CI this many times the target is a noisy host: the probe says what would help.
NOISY = 2.0


class Turns(Protocol):
    """What the probe plays rounds with: harness/session/rounds/priority.py's units on the clock."""

    units: Sequence[Unit]

    def play(self, index: int, round_index: int) -> None:
        ...

    def round_s(self, index: int) -> float:
        ...

    def room_s(self) -> float:
        ...

    def before_floor(self, index: int) -> None:
        ...

    def foresee(self, guess: Callable[[], tuple[int, int] | None]) -> None:
        ...

    def clock(self) -> float:
        ...


def _known(after: tuple[int, int] | None) -> tuple[int, int] | None:
    return after


class ProbeSession(Protocol):
    """The scheduler's session, as far as the probe reads it."""

    claims: dict[GroupKey, list[ClaimReading]]
    setup: SessionSetup  # its stopping rule and store
    progress: RunProgress

    def group_rows(self, group: GroupKey) -> list[ResultRow]:
        ...

    def estimated_round_s(self, unit: Unit) -> float:
        ...


def probe_indices(count: int, wanted: int) -> list[int]:
    """`wanted` unit indices spread evenly over `count` units (all of them when there are fewer)."""
    if wanted >= count:
        return list(range(count))
    return sorted({round(i * count / wanted + count / (2 * wanted)) for i in range(wanted)} & set(range(count)))


def group_label(group: GroupKey) -> str:
    """'001/employee-single@avx2 on 8.0.0' (no runtime named on a lab's only build)."""
    isa, experiment, name, runtime = group
    return f"{experiment}/{name}@{isa}" + ("" if runtime == DEFAULT_RUNTIME else f" on {runtime}")


def unit_label(unit: Unit) -> str:
    """A unit by its groups: '001/employee-single@avx2 on 8.0.0', with ' and 3 more groups' for a unit of the
    paired-shared design."""
    groups = process_groups(unit.cells)
    more = "" if len(groups) == 1 else f" and {len(groups) - 1} more group" + ("s" if len(groups) > 2 else "")
    return group_label(groups[0]) + more


def _log_spread(ratios: list[float]) -> float | None:
    logs = [math.log(r) for r in ratios if r > 0]
    return statistics.stdev(logs) if len(logs) >= 2 else None


def probed(group: GroupKey, rows: list[ResultRow], readings: list[ClaimReading]) -> tuple[list, list]:
    """The group's ratios that count toward precision, and its claims, each with its spread over the probe's
    processes."""
    label, replicates = group_label(group), measured_replicates(rows)
    ratios, claims = [], []
    for ratio in group_ratios(rows):
        spread = _log_spread(paired_ratios(replicates.get(ratio.benchmark, []), replicates.get(ratio.baseline, [])))
        if ratio.counts and spread is not None:
            n = len(replicates.get(ratio.benchmark, []))
            ratios.append(ProbedRatio(label, ratio.benchmark, spread, n))
    for reading in readings:
        per_process = paired_ratios(replicates.get(reading.benchmark, []), replicates.get(reading.reference, []))
        spread = _log_spread(per_process)
        if spread is not None:
            centre = math.exp(statistics.fmean(math.log(r) for r in per_process))
            claims.append(ProbedRatio(label, reading.benchmark, spread, len(per_process), reading.published, centre))
    return ratios, claims


class NoiseProbe:
    """Plays the probe's rounds, forecasts, says it and writes noise_probe.json."""

    def __init__(self, session: ProbeSession, turns: Turns, spec: BudgetSpec) -> None:
        self.session, self.turns, self.spec = session, turns, spec
        self.indices = probe_indices(len(turns.units), spec.probe_groups)

    def play(self) -> float:
        """The probe's rounds, unit by unit; returns their wall seconds (on the budget's clock)."""
        started = self.turns.clock()
        rounds = [(index, r) for index in self.indices for r in range(1, self.spec.probe_rounds + 1)]
        for k, (index, round_index) in enumerate(rounds):
            if round_index == 1:
                self.turns.before_floor(index)  # a calibration before the first unit of each ISA level
            after = rounds[k + 1] if k + 1 < len(rounds) else None
            self.turns.foresee(partial(_known, after))  # the probe's next round is known (a pipelined design)
            self.turns.play(index, round_index)
        return self.turns.clock() - started

    def record(self, seconds: float) -> NoiseProbeRecord:
        """The forecast from the probed units' rows, as noise_probe.json holds it."""
        units = self.turns.units
        keys = {i: process_groups(units[i].cells) for i in range(len(units))}
        probed_s = sum(self.turns.round_s(i) for i in self.indices)
        estimated_s = sum(self.session.estimated_round_s(units[i]) for i in self.indices)
        scale = probed_s / estimated_s if estimated_s > 0 else 1.0
        per_unit = {i: self._shares(i, keys[i], 1.0 if i in self.indices else scale) for i in range(len(units))}
        shares = [s for i in range(len(units)) for s in per_unit[i]]
        rounds = shared_rounds(self.turns.room_s() + seconds, shares, self.spec.floor_rounds)
        ratios, claims = [], []
        for i in self.indices:
            for key in keys[i]:
                group_ratios_, group_claims = probed(
                    key, self.session.group_rows(key), self.session.claims.get(key, [])
                )
                ratios += group_ratios_
                claims += group_claims
        target = self.session.setup.stopping.target_rel_ci
        result = forecast(ratios, claims, [s for i in self.indices for s in per_unit[i]], rounds, target, t_quantile)
        total = sum(len(self.session.claims.get(k, [])) for ks in keys.values() for k in ks)
        return NoiseProbeRecord(
            groups=[group_label(k) for i in self.indices for k in keys[i]],
            rounds=self.spec.probe_rounds,
            seconds=round(seconds, 1),
            ratios=len(ratios),
            spread_median=result.spread_median,
            steering_rounds=rounds[True],
            other_rounds=rounds[False],
            forecast_median_rel_ci=result.median_rel_ci,
            probed_claims=result.probed_claims,
            inconclusive_probed=result.inconclusive_probed,
            claims=total,
            forecast_inconclusive=scaled_count(result.inconclusive_probed, result.probed_claims, total),
            budget_min=self.spec.minutes,
            target_rel_ci=target,
            minutes_for_target=self._minutes_for(result, shares, target, seconds),
        )

    def _shares(self, index: int, keys: list[GroupKey], scale: float) -> list[GroupShare]:
        """The shares of a unit's groups: each its part of the unit's round (by cells; a unit of the paired-shared
        design measures several groups in one process), the round's cost scaled as `scale` says; every group of a
        unit steers when one does (it is measured in each round the unit gets)."""
        unit, stopping = self.turns.units[index], self.session.setup.stopping
        round_s = self.turns.round_s(index) * scale
        steering = any(self.session.claims.get(key) for key in keys)  # a unit's rounds serve all its groups
        shares = []
        for key in keys:
            cells = [c for c in unit.cells if group_key(c) == key]
            shares.append(
                GroupShare(
                    group_label(key),
                    round_s * len(cells) / len(unit.cells),
                    steering,
                    stopping.max_rounds,
                    stopping.time_cap_s(len({c.benchmark for c in cells})),
                    stopping.min_rounds,
                )
            )
        return shares

    def _minutes_for(
        self, result: NoiseForecast, shares: list[GroupShare], target: float | None, probe_s: float
    ) -> float | None:
        """The budget at which the median probed ratio would reach the target, every steering group given the
        processes that takes (the rest their floor), plus what the run keeps back beside its rounds."""
        if target is None or result.spread_median is None:
            return None
        n = processes_for(target, result.spread_median, t_quantile)
        if n is None:
            return None
        floor = self.spec.floor_rounds
        rounds_s = sum(s.round_s * (max(n, floor) if s.steering else floor) for s in shares)
        kept_s = self.spec.minutes * 60 - self.turns.room_s() - probe_s  # the time before the probe, and the reserve
        return (rounds_s + kept_s) / 60


def describe(record: NoiseProbeRecord) -> list[str]:
    """The probe's lines for the run's output: what it measured, what it forecasts, and advice on a noisy host."""
    spread = (
        "no ratio measured in two or more processes"
        if record.spread_median is None
        else f"per-process ratios spread by a median {100 * record.spread_median:.1f}% between processes"
    )
    groups = f"{len(record.groups)} group{'' if len(record.groups) == 1 else 's'}"
    lines = [
        f"noise probe: {groups} × {record.rounds} processes ({record.seconds:.0f} s, counted toward their floor): "
        + spread
    ]
    if record.forecast_median_rel_ci is None:
        return [*lines, "noise probe: no ratio with a spread yet, so no forecast"]
    inconclusive = (
        ""
        if record.forecast_inconclusive is None
        else f", about {record.forecast_inconclusive:.0f} of the {record.claims} claims it steers by inconclusive "
        f"({record.inconclusive_probed} of the {record.probed_claims} probed)"
    )
    lines.append(
        f"noise probe forecast for the {record.budget_min:g}-min budget: about {record.steering_rounds} processes per "
        f"group with a published claim, {record.other_rounds} per other group; median ratio 99% CI "
        f"{format_rel_ci(record.forecast_median_rel_ci)}{inconclusive}"
    )
    target = record.target_rel_ci
    if target is not None and record.forecast_median_rel_ci > NOISY * target:
        longer = (
            f"a budget of about {record.minutes_for_target:.0f} min (--budget) for the median at "
            f"{format_rel_ci(target)}"
            if record.minutes_for_target is not None
            else "no budget reaches the target at this spread"
        )
        lines.append(
            f"noise probe: this host is noisy (the forecast is over {NOISY:g}× the ±{100 * target:g}% target): "
            f"{longer}; or fewer neighbours: bare metal, or a CPU kept for the lab (isolcpus=, docs/hosts.md)"
        )
    return lines


def run_probe(session: ProbeSession, turns: Turns, spec: BudgetSpec) -> None:
    """Plays and records the probe unless a first session of this run already did (a resume keeps its rows)."""
    if session.setup.store.path(NOISE_PROBE_FILE).exists():
        return
    probe = NoiseProbe(session, turns, spec)
    record = probe.record(probe.play())
    session.setup.store.write_json(NOISE_PROBE_FILE, record.to_dict())
    for line in describe(record):
        session.progress.note(line)
