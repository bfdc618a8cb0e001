"""The parts of a plan that resolve_plan (harness/planning/run_plan.py) settles one at a time: the profile's job with
the command line's --job settings and its budget with --budget, the inputs and tools the cells need, the cells the
run keeps from measuring (a package under its vendor's terms not accepted, an ISA level without a switch for its
build), and what the single shots cost up front. They are separate from run_plan.py, which holds the options, the
plan and the order they are resolved in; none of them needs the options or the plan.
"""

from __future__ import annotations

import dataclasses
import pathlib
from collections.abc import Iterable

from harness.config.data.datasets import Manifest
from harness.config.experiment.profiles import BudgetSpec, Stopping
from harness.config.isa import IsaTable
from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell, JobSettings, job_setting_range
from harness.model.errors import ConfigError, UnknownNameError
from harness.planning.estimate import ShotCosts
from harness.planning.history import load_call_rates
from harness.planning.plan import datasets_of, labs_of


def with_overrides(job: JobSettings, overrides: Iterable[str]) -> JobSettings:
    """The profile's job with --job KEY=VALUE settings put in its place; an unknown key or a bad value is a usage
    error."""
    keys = [f.name for f in dataclasses.fields(JobSettings)]
    overrides = list(overrides)
    changes: dict[str, int] = {}
    for item in overrides:
        key, _, value = item.partition("=")
        if key not in keys:
            raise UnknownNameError("job setting", key, keys, "(--job KEY=VALUE)")
        if not value.isdigit():
            low, high = job_setting_range(key)
            raise ConfigError(
                f"--job {item}: the value must be "
                + ("a positive integer" if high is None else f"an integer {low}..{high}"),
                f"e.g. --job {key}={20 if high is None else high}",
            )
        changes[key] = int(value)
    try:
        return dataclasses.replace(job, **changes)
    except ValueError as error:
        raise ConfigError(
            f"--job {' '.join(overrides)}: {error}", "see docs/method.md for each job setting's range"
        ) from None


def with_budget(budget: BudgetSpec | None, budget_min: float | None, min_rounds: int) -> BudgetSpec | None:
    """The profile's budget with --budget MINUTES put in its place (0 or less: none; a profile without one gets one
    whose floor is the stopping rule's `min_rounds`)."""
    if budget_min is not None and budget_min <= 0:
        budget = None
    elif budget_min is not None:
        budget = dataclasses.replace(budget, minutes=budget_min) if budget else BudgetSpec(budget_min, min_rounds)
    return budget


#: `--until-decided` without `--max`: the session stops after this many minutes (8 hours) whatever is left open.
UNTIL_DECIDED_MINUTES = 8 * 60
#: `--until-decided`: a group's round cap (no group of a run of these gets near it: a claim that needs more processes
#: than this is forecast undecidable first, harness/model/stats/decision_forecast.py).
UNTIL_DECIDED_ROUNDS = 1000


def until_decided(budget: BudgetSpec | None, stopping: Stopping, max_min: float | None) -> tuple[BudgetSpec, Stopping]:
    """The budget and stopping rule of `--until-decided [--max MINUTES]`: the profile's floor, rounds
    beyond the floor only while an open claim is forecast decided in the time left (harness/model/stats/allocation.py
    UNTIL_DECIDED), for at most `max_min` minutes; groups neither precise nor time-capped."""
    if not stopping.adaptive:
        raise ConfigError(
            "--until-decided needs a profile whose stopping rule adapts (a target_rel_ci and max_rounds above "
            f"min_rounds); this one runs {stopping.min_rounds} round(s)",
            "use it with the default profile (just run-all default --until-decided), or give the profile a target",
        )
    floor = budget.floor_rounds if budget else stopping.min_rounds
    # No noise probe: it forecasts a budget shared evenly, where this run stops each group once its claims are
    # decided (measured: run until-check-2026-12-01, forecast ±3.57%, reached ±5.34%).
    spec = BudgetSpec(max_min or UNTIL_DECIDED_MINUTES, floor, "expected-decisions", until_decided=True)
    rule = dataclasses.replace(stopping, max_rounds=max(stopping.max_rounds, UNTIL_DECIDED_ROUNDS), until_decided=True)
    return spec, rule


#: How the plan says each budget priority gives the rounds beyond the floor (harness/config/experiment/profiles.py
#: PRIORITIES).
PRIORITY_TEXT = {
    "open-claims": "; groups with an undecided claim first",
    "expected-decisions": "; first to the group forecast to decide the most claims per second of its rounds",
}


def budget_text(budget: BudgetSpec, min_rounds: int) -> str:
    """The budget as the plan states it."""
    floor = min(budget.floor_rounds, min_rounds)
    if budget.until_decided:
        return (
            f"until every claim a round can decide is decided, at most {budget.minutes:g} min from the first "
            f"measurement (--until-decided: the claims forecast decided soonest first; every group gets at least "
            f"{floor} rounds)"
        )
    return (
        f"run budget {budget.minutes:g} min from the first measurement, after the builds and lab probes (extra rounds "
        "only while it holds" + PRIORITY_TEXT.get(budget.priority, "") + f"; every group gets at least {floor} rounds)"
    )


def without_unaccepted_terms(cell: Cell, lab: LabSpec) -> Cell:
    """The cell, unavailable with the reason and the opt-in when its variant needs a package under its vendor's terms
    that the user has not accepted (harness/config/lab/vendor_terms.py): such a package is not built, so never run."""
    reason = "" if cell.unavailable else lab.unavailable_variant(cell.variant)
    return dataclasses.replace(cell, unavailable=reason) if reason else cell


def unswitchable_cells(cells: list[Cell], labs: dict[str, LabSpec], isa: IsaTable) -> frozenset[str]:
    """Cells at an ISA level their build declares no switch for (lab.toml `reports` names the [isa_switches] table):
    the run records them as not applicable, so they cost nothing."""
    found = set()
    for cell in cells:
        lab = labs[cell.target]
        reports, version = lab.reported_runtime(), lab.expected_version()
        if cell.isa_level == "native" or reports is None or version is None:
            continue
        if not isa.has_switches(reports, version, cell.isa_level):
            found.add(cell.cell_id)
    return frozenset(found)


def shot_costs_of(shots: list[Cell], manifest: Manifest, results_dir: pathlib.Path) -> ShotCosts:
    """What the single-shot cells cost up front; earlier runs' rows are read only when there are such cells (a plan
    without any does not parse them)."""
    if not shots:
        return ShotCosts()
    return ShotCosts({c.dataset: manifest.find(c.dataset).bytes for c in shots}, load_call_rates(results_dir))


def check_inputs(cells: list[Cell], manifest: Manifest, all_labs: dict[str, LabSpec], check_tools: bool) -> None:
    """Checks every dataset the cells read against the manifest and, with `check_tools`, each of their labs' tools."""
    for name in datasets_of(cells):  # a generated dataset not built yet is built by the run (ensure_datasets)
        if manifest.present(name) or manifest.find(name).committed:
            manifest.check(name)
    for name in labs_of(cells) if check_tools else ():
        all_labs[name].check_requirements()
