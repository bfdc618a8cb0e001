"""A plan on one screen (`harness plan`, and a run before it starts): its cells per experiment, ISA level and runtime,
those unavailable and why, an explaining plan's experiments with no factor to switch, and the estimated duration. It
is separate from harness/planning/run_plan.py, which resolves the plan; this module only describes one.
"""

from __future__ import annotations

import os
from collections import Counter

from harness.config.lab.setting_switches import publisher_settings
from harness.model.cells import Cell
from harness.model.experiment import Experiment
from harness.model.folder.records import DEFAULT_RUNTIME
from harness.model.places import is_switched
from harness.planning.designs import group_key
from harness.planning.run_plan import Plan
from harness.planning.throughput import best_split, pace


def plan_summary(plan: Plan) -> str:
    """Cells per experiment, ISA level and runtime, and the estimated duration."""
    counts: dict[tuple[str, str, str], list[int]] = {}
    for cell in plan.cells:
        key = (cell.experiment, cell.isa_level, "" if cell.place == DEFAULT_RUNTIME else f" on {cell.place}")
        count = counts.setdefault(key, [0, 0])
        count[cell.cell_id in plan.not_applicable] += 1
    groups = len({group_key(c) for c in plan.cells})
    na = f" ({len(plan.not_applicable)} not applicable: no ISA switch)" if plan.not_applicable else ""
    lines = [
        f"profile {plan.profile_name}: {len(plan.cells)} cells{na} in {groups} groups, design {plan.design.name}",
        *(f"  {exp} @ {level}{runtime}: {_cells_text(n, skip)}" for (exp, level, runtime), (n, skip) in counts.items()),
        *(f"  {n} unavailable, {reason}" for reason, n in _unavailable(plan.cells).items()),
        *(_nothing_to_switch(exp, plan.cells) for exp in plan.experiments if plan.explains),
        f"estimate: {plan.estimate()}",
        _pace(plan),
    ]
    return "\n".join(line for line in lines if line)


def _pace(plan: Plan, cpus: int | None = None) -> str:
    """For a pipelined design whose processes an earlier run timed: the pipeline's pace on one lab CPU and one warm CPU
    (harness/planning/throughput.py), and what the same costs would pace on this machine's CPUs ("" otherwise)."""
    costs = plan.history.process if plan.history is not None else None
    if not plan.design.pipelined or costs is None:
        return ""
    extends, shares = bool(plan.job.extend_rounds), bool(plan.job.warm_on_lab_cpu)
    now = pace(costs, 1, 1, extends, shares)
    lines = [
        f"pace: {now.text()} (run {costs.run}: {costs.lab_s:.1f} s on the lab's CPU and {costs.warm_s:.1f} s to warm, "
        f"medians over {costs.processes} processes)"
    ]
    cpus = (os.cpu_count() or 2) if cpus is None else cpus
    if cpus > 2:
        best = best_split(costs, cpus, extends, shares)
        lines.append(
            f"  this machine's {cpus} CPUs, split for the same costs: {best.text()} (a run measures on one lab CPU "
            "and warms on one today)"
        )
    return "\n".join(lines)


def _nothing_to_switch(exp: Experiment, cells: list[Cell]) -> str:
    """For an experiment of an explaining plan none of whose cells switches a factor: why, and what its cells then
    measure ("" when some cell switches one)."""
    mine = [c for c in cells if c.experiment == exp.id]
    if not mine or any(is_switched(c.place) for c in mine):
        return ""
    stated = ", ".join(exp.published_versions)
    versions = (
        f"none of the library versions its write-up states ({stated}) is one the lab can build that differs from "
        "its own"
        if stated
        else "its write-up states no library version"
    )
    settings = ", ".join(f"{name}={value}" for name, value in publisher_settings(exp))
    setup = (
        f"its publisher's run settings ({settings}) are its cells' own or cannot take effect here"
        if settings
        else "its publisher's setup states no run setting"
    )
    return (
        f"  {exp.id}: nothing to switch: {versions}, and {setup}\n"
        f"    its {len(mine)} cells only re-measure its claimed figures: a reproduction with no factor beside it, so "
        'the report\'s "Explained by" column can name none for them'
    )


def _unavailable(cells: list[Cell]) -> Counter[str]:
    """How many cells are unavailable (never run: a row with the reason), by reason."""
    return Counter(cell.unavailable for cell in cells if cell.unavailable)


def _cells_text(runnable: int, unswitchable: int) -> str:
    """'30 cells', '30 cells not applicable (no ISA switch)' or '28 cells, 2 not applicable (no ISA switch)'."""
    if not unswitchable:
        return f"{runnable} cells"
    if not runnable:
        return f"{unswitchable} cells not applicable (no ISA switch)"
    return f"{runnable} cells, {unswitchable} not applicable (no ISA switch)"
