"""What a run's budget can decide on this host, forecast from its first few processes (the noise probe).

A ratio's 99% interval over n paired processes is centre ± t(n)·s/√n on the log scale (harness/model/stats/stats.py),
its relative half-width sinh(t(n)·s/√n); s, the spread of the per-process log ratios, is what a noisy host makes large
(processes that disagree). The probe measures s for every ratio of a few groups over their first k processes and
forecasts:

- the run's median ratio 99% CI (the report's, over every ratio that is not void and not a baseline's to itself, A/A
  copies included): each probed ratio's half-width at the processes its group is forecast to get, then their median;
- the published claims left inconclusive: a probed claim whose interval at those processes would still straddle an
  edge of its tolerance band (harness/model/stats/decision_forecast.py), counted among the probed claims and scaled to
  all.

An s over k processes is a draw with k − 1 degrees of freedom: with 2 or 3 processes its median lies well below the
ratio's true spread (s² / σ² is χ²(k − 1) / (k − 1), whose median is 0.45 at one degree of freedom, 0.69 at two), so
each s is divided by that median's square root before the median of the ratios is taken. The processes a group gets
are the budget's even share (the time left over the summed round cost of every group), cut where its widest ratio
reaches the stopping rule's target or the group reaches its round or machine-time cap.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from scipy import stats as _scipy_stats

from harness.model.stats.decision_forecast import processes_to_decide


@dataclass(frozen=True)
class ProbedRatio:
    """One ratio of a probed group: the log-ratio spread over its first processes, and, when it is a published claim,
    the published ratio and the measured centre."""

    group: str
    benchmark: str
    sd_log: float
    processes: int
    published: float | None = None
    centre: float | None = None


@dataclass(frozen=True)
class GroupShare:
    """A group's rounds as the budget shares them: their cost, its caps, and whether it holds a published claim."""

    group: str
    round_s: float
    steering: bool  # holds a published claim: both claim priorities give such groups the rounds beyond the floor
    max_rounds: int = 10_000
    time_cap_s: float | None = None  # the group's machine-time cap (its cells × the per-cell cap); None: no cap
    min_rounds: int = 2


@dataclass(frozen=True)
class NoiseForecast:
    """The forecast for the run: processes per probed group, the median ratio CI, and the probed claims left
    inconclusive."""

    processes: dict[str, int]
    median_rel_ci: float | None
    probed_claims: int
    inconclusive_probed: int
    spread_median: float | None  # the corrected median spread of the probed ratios' log ratios


def corrected_sd(sd_log: float, processes: int) -> float:
    """A spread over `processes` scaled by the median of its χ² draw: a median-unbiased reading of σ."""
    dof = processes - 1
    return sd_log / math.sqrt(float(_scipy_stats.chi2.ppf(0.5, dof)) / dof)


def rel_half_width(sd_log: float, n: int, t_of_n: Callable[[int], float]) -> float:
    """The relative half-width (as Interval.relative_half_width) of a ratio spread `sd_log` over n processes."""
    return math.sinh(t_of_n(n) * sd_log / math.sqrt(n))


def shared_rounds(room_s: float, shares: Sequence[GroupShare], floor: int) -> dict[bool, int]:
    """Rounds per group, by whether it steers: the open-claims and expected-decisions priorities give every group its
    floor, then the rounds beyond it to the groups holding claims (the others wait for rounds no claim group wants,
    which a noisy host leaves none of); here each steering group gets an even share of what is left after the others'
    floor (expected-decisions shares it unevenly, by what each claim needs: checked against what runs reached in
    docs/findings.md, "The allocation rule decided")."""
    others = sum(s.round_s for s in shares if not s.steering) * floor
    steering = sum(s.round_s for s in shares if s.steering)
    rounds = int((room_s - others) / steering) if steering > 0 else floor
    return {True: max(floor, rounds), False: floor}


def group_processes(
    share: GroupShare, rounds: int, widest_sd: float, target: float | None, t_of_n: Callable[[int], float]
) -> int:
    """Processes a group gets of `rounds`: fewer when its widest ratio reaches the target earlier, never more than its
    round and machine-time caps allow, never fewer than its minimum."""
    cap = share.max_rounds
    if share.time_cap_s is not None and share.round_s > 0:
        cap = min(cap, max(share.min_rounds, int(share.time_cap_s / share.round_s)))
    n = max(share.min_rounds, min(rounds, cap))
    if target is not None:
        for k in range(max(2, share.min_rounds), n + 1):
            if rel_half_width(widest_sd, k, t_of_n) <= target:
                return k
    return n


def forecast(
    ratios: Sequence[ProbedRatio],
    claims: Sequence[ProbedRatio],
    shares: Sequence[GroupShare],
    rounds: dict[bool, int],
    target: float | None,
    t_of_n: Callable[[int], float],
) -> NoiseForecast:
    """The run's forecast from the probed groups' ratios and claims (the module's docstring says how)."""
    spread = {id(r): corrected_sd(r.sd_log, r.processes) for r in [*ratios, *claims] if r.processes >= 2}
    by_group: dict[str, list[float]] = {}
    for r in ratios:
        if id(r) in spread:
            by_group.setdefault(r.group, []).append(spread[id(r)])
    processes = {
        s.group: group_processes(s, rounds[s.steering], max(by_group[s.group]), target, t_of_n)
        for s in shares
        if s.group in by_group
    }
    widths = [rel_half_width(spread[id(r)], processes[r.group], t_of_n) for r in ratios if r.group in processes]
    read = [r for r in claims if r.group in processes and id(r) in spread]
    undecided = sum(1 for r in read if _inconclusive(r, spread[id(r)], processes[r.group], t_of_n))
    spreads = [spread[id(r)] for r in ratios if id(r) in spread]
    return NoiseForecast(
        processes,
        statistics.median(widths) if widths else None,
        len(read),
        undecided,
        statistics.median(spreads) if spreads else None,
    )


def _inconclusive(claim: ProbedRatio, sd: float, n: int, t_of_n: Callable[[int], float]) -> bool:
    """True when the claim's interval at n processes, centred where the probe found it, straddles a band edge."""
    if claim.published is None or claim.centre is None:
        return False
    half = t_of_n(n) * sd / math.sqrt(n)
    lower, upper = claim.centre * math.exp(-half), claim.centre * math.exp(half)
    return processes_to_decide(claim.published, lower, upper, n) > n


def scaled_count(probed_open: int, probed: int, total: int) -> float | None:
    """The probed claims' inconclusive share applied to all `total` claims (None with no probed claim)."""
    return None if probed == 0 else probed_open / probed * total


def processes_for(target: float, sd_log: float, t_of_n: Callable[[int], float], cap: int = 10_000) -> int | None:
    """The fewest processes at which a ratio of spread `sd_log` reaches `target` (None: beyond `cap`); the half-width
    falls as n grows, so it is found by bisection."""
    if rel_half_width(sd_log, cap, t_of_n) > target:
        return None
    low, high = 1, cap  # the half-width at `low` is above the target (one process has none), at `high` within it
    while high - low > 1:
        middle = (low + high) // 2
        low, high = (low, middle) if rel_half_width(sd_log, middle, t_of_n) <= target else (middle, high)
    return high
