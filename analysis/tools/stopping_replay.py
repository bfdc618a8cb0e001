"""Stopping rules replayed on a finished run: which verdicts one hour decides under each rule, from real processes.

A paired group's round r is one fresh process, and a group stopped after k rounds would have run exactly the first k
processes of a longer run (the same cells in the same process, rounds in the same order). So a run with more rounds per
group than an hour affords (a longer-budget run) holds every shorter allocation as a prefix, and a stopping rule can be
replayed on it without measuring again. The machine time to share is what a real hour-long run spent in its steady
processes (the reference run's rows), each group's round costed at what its processes took in the replayed run.

Rules replayed, each the run's own sharing (harness/model/stats/allocation.py) and stopping rule
(harness/model/stats/group_precision.py), from the same floor of rounds per group and with the same caps:
- `precision`: every group takes rounds in turn, fewest first, until each of its ratios' 99% CI is within the target or
  its cap is reached (the budget's sharing with no claim open).
- `claims`: a group also stops as soon as every published claim read on it is decided (its interval wholly inside or
  wholly outside the tolerance band), and while any group's claim is still open, rounds go to those groups first.
- `claims-first` (the run budget's 'open-claims' priority, harness/session/rounds/priority.py): no group stops for being
  decided, but while any group's claim is open, rounds go to those groups first; the rest as under `precision`.
- `expected-decisions` (the 'expected-decisions' priority): each round to the group whose rounds are forecast to decide
  the most claims per second (harness/model/stats/decision_forecast.py, from the prefix's own intervals), among
  forecasts that fit the time left; then as `claims-first`.

For each rule the verdicts are the report's own (verdict_table over the truncated rows) and the precision the report's
own (median ratio 99% CI half-width). Cross-level claims (a ratio between two ISA levels) do not steer the replay, since
their two sides live in different groups; they are judged at the end like every other claim.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass

import pandas as pd

from analysis.compute.aggregate import median_relative_ci, with_ratios
from analysis.compute.cold_start import split_measures
from analysis.compute.load import RunData
from analysis.compute.precision import cell_ratios
from analysis.compute.replicates import summarize_cells
from analysis.compute.run_experiments import run_experiments
from analysis.compute.verdicts.verdicts import verdict_table
from harness.config.experiment.profiles import Stopping
from harness.model.errors import HarnessError
from harness.model.experiment import Experiment
from harness.model.groups import RUNNING
from harness.model.judging import BYTES_ONLY, INCONCLUSIVE
from harness.model.stats.allocation import EXPECTED_DECISIONS, OPEN_CLAIMS_FIRST, Claims, SharingRule, share_rounds
from harness.model.stats.decision_forecast import processes_to_decide
from harness.model.stats.group_precision import GroupPrecision, group_state, precision_of
from harness.model.stats.pairing import SHARED_PROCESS_DESIGNS

GROUP = ["isa_requested", "experiment", "group", "runtime_requested"]
#: The rules replayed, by name: how harness/model/stats/allocation.py shares the rounds beyond the floor under each.
RULES = {
    "precision": SharingRule(claims_first=False),
    "claims": SharingRule(claims_first=True, stop_when_decided=True),
    "claims-first": OPEN_CLAIMS_FIRST,  # the run budget's open-claims priority
    "expected-decisions": EXPECTED_DECISIONS,  # the run budget's expected-decisions priority
}


@dataclass(frozen=True)
class PrefixState:
    """A group after its first k rounds: its open claims, its claims, its widest ratio CI (None: not yet known) and
    how many of its ratios count toward that (harness/model/stats/group_precision.py)."""

    undecided: int
    claims: int
    worst_ci: float | None
    comparable: int
    to_decide: tuple[float, ...] = ()  # per undecided claim, the further rounds forecast to decide it

    @property
    def precision(self) -> GroupPrecision:
        """The group's precision, as the run's stopping rule reads it."""
        return GroupPrecision(self.worst_ci, self.comparable)


#: A group before its first round.
NO_ROUNDS = PrefixState(0, 0, None, 0)


#: What identifies a verdict row across runs and prefixes.
VERDICT_ID = ["experiment", "scenario", "published_variant", "benchmark", "metric", "isa_level", "runtime"]


def _claims_read_here(verdicts: pd.DataFrame, primary: set[tuple]) -> pd.DataFrame:
    """The time verdicts among `verdicts` that the full run reads as primary (a group's own cells alone cannot tell
    which runtime is a claim's primary one)."""
    if verdicts.empty:
        return verdicts
    ids = [tuple(r) for r in verdicts[VERDICT_ID].itertuples(index=False)]
    mask = [(i in primary) and m == "time" for i, m in zip(ids, verdicts["metric"])]
    return verdicts[mask & (verdicts["verdict"] != BYTES_ONLY)]


def prefix_state(experiment: Experiment, rows: pd.DataFrame, k: int, primary: set[tuple]) -> PrefixState:
    """The state of one group's first k rounds."""
    sub = rows[rows["round_index"] <= k]
    cells = with_ratios(summarize_cells(sub), sub)
    precision = precision_of(cell_ratios(cells))
    claims = _claims_read_here(verdict_table([experiment], cells, sub), primary) if primary else pd.DataFrame()
    undecided = claims[claims["verdict"] == INCONCLUSIVE] if len(claims) else pd.DataFrame()
    return PrefixState(len(undecided), len(claims), precision.widest, precision.comparable, _forecasts(undecided))


def _forecasts(undecided: pd.DataFrame) -> tuple[float, ...]:
    """The further rounds each undecided claim is forecast to need, from its verdict row's interval and pairs."""
    out: list[float] = []
    for row in undecided.itertuples(index=False):
        pairs = int(row.pairs) if row.pairs is not None and row.pairs == row.pairs else 0
        lower, upper = (
            None if v is None or v != v else float(v) for v in (row.measured_ratio_lower, row.measured_ratio_upper)
        )
        out.append(processes_to_decide(float(row.published_ratio), lower, upper, pairs) - pairs)
    return tuple(out)


def primary_ids(rows: pd.DataFrame, experiments: dict[str, Experiment]) -> set[tuple]:
    """The primary time verdicts of a whole run, by VERDICT_ID."""
    cells = with_ratios(summarize_cells(rows), rows)
    verdicts = verdict_table([experiments[e] for e in dict.fromkeys(cells["experiment"])], cells, rows)
    chosen = verdicts[verdicts["primary"].astype(bool) & (verdicts["metric"] == "time")]
    return {tuple(r) for r in chosen[VERDICT_ID].itertuples(index=False)}


def group_states(run: RunData, experiments: dict[str, Experiment]) -> dict[tuple, list[PrefixState]]:
    """Per paired group of the run, its state after 1, 2, … of its recorded rounds (index k-1)."""
    steady, _ = split_measures(run.rows)
    primary = primary_ids(steady, experiments)
    states: dict[tuple, list[PrefixState]] = {}
    for key, rows in steady.groupby(GROUP, sort=False):
        rounds = int(rows["round_index"].max())
        ids = {i for i in primary if i[0] == key[1] and i[5] == key[0] and i[6] == key[3]}
        states[key] = [prefix_state(experiments[key[1]], rows, k, ids) for k in range(1, rounds + 1)]
    return states


def _round_costs(run: RunData) -> dict[tuple, float]:
    steady, _ = split_measures(run.rows)
    return {
        key: float(rows["duration_s"].fillna(0).sum()) / max(int(rows["round_index"].max()), 1)
        for key, rows in steady.groupby(GROUP, sort=False)
    }


class _Recorded:
    """A longer run's groups as harness/model/stats/allocation.py shares them: each round costed at what the group's
    rounds took in that run, the time left what `budget_s` leaves, and never more rounds than the run recorded."""

    def __init__(
        self,
        states: dict[tuple, list[PrefixState]],
        costs: dict[tuple, float],
        cells_per_group: dict[tuple, int],
        budget_s: float,
        stopping: Stopping,
    ) -> None:
        self.keys, self.states, self.costs, self.cells = list(states), states, costs, cells_per_group
        self.budget_s, self.stopping, self.spent = budget_s, stopping, 0.0

    def _state(self, index: int, rounds_done: int) -> PrefixState:
        return self.states[self.keys[index]][rounds_done - 1] if rounds_done else NO_ROUNDS

    def wants_rounds(self, index: int, rounds_done: int) -> bool:
        g = self.keys[index]
        if rounds_done >= len(self.states[g]):
            return False
        precision = self._state(index, rounds_done).precision
        return group_state(self.stopping, rounds_done, rounds_done * self.costs[g], precision, self.cells[g]) == RUNNING

    def claims(self, index: int, rounds_done: int) -> Claims:
        state = self._state(index, rounds_done)
        return Claims(open=state.undecided, read=state.claims, to_decide=state.to_decide)

    def room_s(self) -> float:
        return self.budget_s - self.spent

    def round_s(self, index: int) -> float:
        return self.costs[self.keys[index]]

    def play(self, index: int, round_index: int) -> None:
        self.spent += self.costs[self.keys[index]]


def allocate(
    states: dict[tuple, list[PrefixState]],
    costs: dict[tuple, float],
    cells_per_group: dict[tuple, int],
    budget_s: float,
    stopping: Stopping,
    floor: int,
    rule: str,
) -> dict[tuple, int]:
    """Rounds per group under `rule` within `budget_s` of machine time (never more than the run recorded): the run's
    own sharing (harness/model/stats/allocation.py) and stopping rule (harness/model/stats/group_precision.py), played
    on the recorded rounds."""
    recorded = _Recorded(states, costs, cells_per_group, budget_s, stopping)
    rounds = share_rounds(recorded, len(recorded.keys), floor, RULES[rule])
    return dict(zip(recorded.keys, rounds))


def truncated(run: RunData, rounds: dict[tuple, int]) -> pd.DataFrame:
    """The run's steady rows, each group cut to its allocated rounds."""
    steady, _ = split_measures(run.rows)
    keep = [
        rounds.get(tuple(key), 0) >= r for key, r in zip(steady[GROUP].itertuples(index=False), steady["round_index"])
    ]
    return steady[keep]


def outcome(rows: pd.DataFrame, experiments: dict[str, Experiment], costs: dict[tuple, float], rounds) -> dict:
    """The report's numbers for a set of rows: primary verdict counts, median ratio CI, processes, machine time."""
    cells = with_ratios(summarize_cells(rows), rows)
    measured = [experiments[e] for e in dict.fromkeys(cells["experiment"])]
    verdicts = verdict_table(measured, cells, rows)
    primary = verdicts[verdicts["primary"].astype(bool) & (verdicts["verdict"] != BYTES_ONLY)]
    counts = Counter(primary["verdict"])
    return {
        "processes": int(sum(rounds.values())),
        "machine_min": sum(rounds[g] * costs.get(g, 0.0) for g in rounds) / 60,
        "median_ratio_ci": median_relative_ci(cells, "ratio_rel_ci99"),
        "inconclusive": counts.get(INCONCLUSIVE, 0),
        "verdicts": dict(counts),
        "by_claim": {tuple(k): v for k, v in zip(primary[VERDICT_ID].itertuples(index=False), primary["verdict"])},
    }


def differing(a: dict, b: dict) -> int:
    """Claims both outcomes judged whose verdicts differ."""
    return sum(1 for key, verdict in a["by_claim"].items() if key in b["by_claim"] and b["by_claim"][key] != verdict)


def replay(long_run: RunData, hour_run: RunData, stopping: Stopping, floor: int) -> tuple[pd.DataFrame, dict]:
    """(rounds per group and rule, the outcome per rule and of the hour-long run as measured). A run whose processes
    held several groups (the paired-shared design) is refused: its groups' k-th processes shared other groups, so a
    prefix of one group's rounds is not what that group alone would have measured."""
    for run in (long_run, hour_run):
        if run.run.design in SHARED_PROCESS_DESIGNS:
            raise HarnessError(
                f"run {run.directory.name} used the {run.run.design} design, whose processes hold several groups: the "
                "stopping replay takes each group's rounds on their own",
                "replay runs of the paired (or interleaved) design",
            )
    # the experiment files as the long run kept them, else this checkout's (analysis/compute/run_experiments.py)
    experiments = run_experiments([long_run.directory], set(long_run.rows["experiment"])).by_id
    states = group_states(long_run, experiments)
    costs = _round_costs(long_run)
    steady_long, _ = split_measures(long_run.rows)
    cells_per_group = {k: int(r["benchmark"].nunique()) for k, r in steady_long.groupby(GROUP, sort=False)}
    hour_steady, _ = split_measures(hour_run.rows)
    budget_s = float(hour_steady["duration_s"].fillna(0).sum())
    hour_rounds = {k: int(r["round_index"].max()) for k, r in hour_steady.groupby(GROUP, sort=False)}
    table = pd.DataFrame(
        [
            {
                "isa_level": g[0],
                "experiment": g[1],
                "group": g[2],
                "runtime": g[3],
                "recorded_rounds": len(states[g]),
                "hour_run_rounds": hour_rounds.get(g),
                "round_s": round(costs[g], 2),
            }
            for g in states
        ]
    )
    outcomes = {"hour run as measured": outcome(hour_steady, experiments, _round_costs(hour_run), hour_rounds)}
    everything = f"all {int(table['recorded_rounds'].sum())} recorded processes"
    outcomes[everything] = outcome(steady_long, experiments, costs, {g: len(s) for g, s in states.items()})
    for rule in RULES:
        rounds = allocate(states, costs, cells_per_group, budget_s, stopping, floor, rule)
        table[f"{rule}_rounds"] = [rounds[g] for g in states]
        outcomes[f"replayed: {rule}"] = outcome(truncated(long_run, rounds), experiments, costs, rounds)
    for o in outcomes.values():
        o["differ_from_all"] = differing(o, outcomes[everything])
    return table, {"budget_min": budget_s / 60, "outcomes": outcomes}
