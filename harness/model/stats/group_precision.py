"""A group's precision and the stopping rule that reads it: one home for the run and the analysis.

A group (one experiment's group at one ISA level and runtime) is judged ratio by ratio, each benchmark over the
group's baseline. A ratio counts toward the group's precision when its baseline was measured, when it is not the
baseline's ratio to itself, and when it is not void (either side failed verification: no precision is worth buying for
it). The group's precision is the widest relative 99% CI half-width over the ratios that count; it is not known while
any of them has fewer than two pairs, nor when none counts. The group is precise once it is known and at or below the
profile's target.

The stopping rule (group_state) reads that after each round: a group runs at least min_rounds; then a fixed-rounds
rule is done; an adaptive one is precise at its target, done when there is nothing to compare, imprecise at max_rounds
or at the group's machine-time cap, and running otherwise. Under `--until-decided` a group is never precise nor
time-capped: the budget's rule stops it once its claims are decided or no round in the time left can decide them.

The run applies both to its result rows (harness/session/rounds/stopping.py); the report's Precision section
(analysis/compute/precision.py) and the stopping replay (analysis/tools/stopping_replay.py) apply them to the report's
cell table: a change here changes all three.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from harness.model.groups import DONE, IMPRECISE, PRECISE, RUNNING


@dataclass(frozen=True)
class Ratio:
    """One benchmark's ratio to its group's baseline, as far as the group's precision goes."""

    benchmark: str
    baseline: str
    void: bool = False  # either side failed verification
    rel_half_width: float | None = None  # relative 99% CI half-width; None: fewer than two pairs yet
    baseline_measured: bool = True  # the baseline has a measured process to be compared with

    @property
    def counts(self) -> bool:
        """True when the ratio counts toward the group's precision."""
        return self.baseline_measured and self.benchmark != self.baseline and not self.void


@dataclass(frozen=True)
class GroupPrecision:
    """How precise a group's ratios are: the widest relative 99% CI half-width over those that count (None: not
    known, while one of them has fewer than two pairs or none counts), and how many count."""

    widest: float | None
    comparable: int

    def reaches(self, target: float | None) -> bool:
        """True when the precision is known and at or below `target` (never without a target)."""
        return target is not None and self.widest is not None and self.widest <= target


def precision_of(ratios: Iterable[Ratio]) -> GroupPrecision:
    """The precision of a group whose ratios are `ratios` (those that do not count are passed over)."""
    counted = [r for r in ratios if r.counts]
    widths = [r.rel_half_width for r in counted]
    known = [w for w in widths if w is not None]
    widest = max(known) if known and len(known) == len(widths) else None
    return GroupPrecision(widest, len(counted))


class StoppingRule(Protocol):
    """What group_state reads of a profile's stopping rule (harness/config/experiment/profiles.py: Stopping)."""

    @property
    def min_rounds(self) -> int:
        ...

    @property
    def max_rounds(self) -> int:
        ...

    @property
    def target_rel_ci(self) -> float | None:
        ...

    @property
    def adaptive(self) -> bool:
        ...

    @property
    def until_decided(self) -> bool:
        ...

    def time_cap_s(self, cells: int) -> float | None:
        ...


def group_state(rule: StoppingRule, rounds_done: int, elapsed_s: float, precision: GroupPrecision, cells: int) -> str:
    """A group's state (harness/model/groups.py) after `rounds_done` rounds that used `elapsed_s` of machine time,
    its ratios at `precision`; `cells` sets its time cap."""
    if rounds_done < rule.min_rounds:
        return RUNNING
    if not rule.adaptive:
        return DONE
    if precision.reaches(rule.target_rel_ci) and not rule.until_decided:
        return PRECISE
    if precision.comparable == 0:
        return DONE  # nothing to compare in this group
    cap = rule.time_cap_s(cells)
    capped = rounds_done >= rule.max_rounds or (cap is not None and elapsed_s >= cap)
    return IMPRECISE if capped else RUNNING
