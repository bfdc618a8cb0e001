"""How precise each group's ratios got against the run's target: precise, imprecise (a cap was hit), stopped by the
run's time budget, or fixed rounds. Which ratios count, the widest interval and the comparison with the target are the
run's own stopping rule's (harness/model/stats/group_precision.py), read here on the report's cell table."""

from __future__ import annotations

from collections.abc import Sequence, Set

import pandas as pd

from analysis.compute.spread import wide_groups_markdown
from analysis.formatting.tables import markdown_table
from harness.model.folder.records import MEASURED
from harness.model.folder.run_records import BudgetRecord, GroupRecord, RunRecord
from harness.model.groups import BUDGET, IMPRECISE, PRECISE, is_aa_copy
from harness.model.stats.group_precision import Ratio, precision_of


def budget_stopped(groups: list[GroupRecord]) -> set[tuple[str, str, str, str]]:
    """(ISA level, experiment, group, runtime) of the groups whose last session stopped them for the run's time
    budget."""
    last = {g.key: g.state for g in groups}
    return {key for key, state in last.items() if state == BUDGET}


def cell_ratios(cells: pd.DataFrame) -> list[Ratio]:
    """Each measured cell's ratio to its baseline (with_ratios' columns), as the stopping rule reads it
    (harness/model/stats/group_precision.py)."""
    return [
        Ratio(
            benchmark=r.benchmark,
            baseline=r.baseline,
            void=bool(r.comparison_void) if pd.notna(r.comparison_void) else False,
            rel_half_width=None if pd.isna(r.ratio_rel_ci99) else float(r.ratio_rel_ci99),
            baseline_measured=r.baseline_status in MEASURED,
        )
        for r in cells[cells["status"].isin(MEASURED)].itertuples()
    ]


def precision_table(
    cells: pd.DataFrame, target: float | None, budget: Set[tuple[str, str, str, str]] = frozenset()
) -> pd.DataFrame:
    """One row per (ISA level, experiment, group, runtime): processes per cell, widest ratio CI, state. The widest CI
    and whether it reaches `target` are the run's stopping rule's (harness/model/stats/group_precision.py). A group in
    `budget` that had not reached the target is 'budget': the run's time budget stopped it, not its own cap."""
    out = []
    for (level, experiment, group, runtime), g in cells[cells["status"].isin(MEASURED)].groupby(
        ["isa_requested", "experiment", "group", "runtime_requested"], sort=False
    ):
        ratios = cell_ratios(g)
        precision = precision_of(ratios)
        mine = g[[ratio.counts for ratio in ratios]]  # the ratios that count
        if target is None or not precision.comparable:
            state = "fixed rounds" if precision.comparable else "nothing to compare"
        else:
            state = (
                PRECISE
                if precision.reaches(target)
                else BUDGET
                if (level, experiment, group, runtime) in budget
                else IMPRECISE
            )
        aa = mine[mine["benchmark"].map(is_aa_copy)]
        out.append(
            {
                "isa_level": level,
                "runtime": runtime,
                "experiment": experiment,
                "group": group,
                "processes_per_cell": int(g["replicates"].max()),
                "design": "/".join(sorted(set(g["design"].dropna()))) if "design" in g else None,
                "widest_ratio_rel_ci99": precision.widest,
                "median_ratio_rel_ci99": mine["ratio_rel_ci99"].median() if not mine.empty else None,
                "aa_ratio": aa["ratio"].iloc[0] if not aa.empty else None,
                "aa_lower": aa["ratio_ci99_lower"].iloc[0] if not aa.empty else None,
                "aa_upper": aa["ratio_ci99_upper"].iloc[0] if not aa.empty else None,
                "machine_s": float(g["duration_s"].sum()),
                "state": state,
            }
        )
    return pd.DataFrame(out)


def precision_markdown(
    cells: pd.DataFrame, run: RunRecord, groups: Sequence[GroupRecord] = (), rows: pd.DataFrame | None = None
) -> str:
    """The 'Precision' section: each group against the stopping rule's target, then the groups wider than
    WIDE_RATIO_CI with the cause of their spread (when the rows are given)."""
    target = run.target_rel_ci
    table = precision_table(cells, target, budget_stopped(list(groups)))
    if table.empty:
        return ""
    text = _summary(table, target, run.budget) + _aa_paragraph(table)
    return text + _groups_table(table) + ("\n\n" + wide_groups_markdown(rows, cells) if rows is not None else "")


def _summary(table: pd.DataFrame, target: float | None, budget: BudgetRecord | None) -> str:
    """The heading and how many groups stopped at a cap, or for the run's time budget, before reaching `target`."""
    imprecise = int((table["state"] == IMPRECISE).sum())
    short = int((table["state"] == BUDGET).sum())
    goal = (
        f"target: every ratio within ±{100 * target:.2g}% (99% CI)"
        if target
        else "fixed number of rounds, no precision target"
    )
    text = f"## Precision\n\nPer group ({goal}); {imprecise} of {len(table)} groups stopped at a cap before reaching it"
    if budget:
        text += (
            f", {short} were stopped by the run's time budget ({budget['minutes']:g} min, shared across groups; at "
            "least "
            f"{budget['floor_rounds']} rounds each)"
        )
    text += ".\n\n"
    return text


def _aa_paragraph(table: pd.DataFrame) -> str:
    """How many A/A ratios contain 1, naming the groups whose do not; empty when no group ran an A/A copy."""
    aa = table[table["aa_ratio"].notna()]
    if aa.empty:
        return ""
    outside = aa[(aa["aa_lower"] > 1) | (aa["aa_upper"] < 1)]
    return (
        "Design per group: the one that produced its ratios. A/A: in each paired group a second copy of the "
        "baseline ran "
        f"as one more member of every process; its ratio to the baseline must be 1 within its interval. "
        f"{len(aa) - len(outside)} of {len(aa)} A/A ratios contain 1"
        + (
            f"; **{len(outside)} do not** "
            f"({', '.join(f'{r.experiment}/{r.group}@{r.isa_level}' for r in outside.itertuples())})"
            if len(outside)
            else ""
        )
        + f"; median |A/A − 1| {100 * (aa['aa_ratio'] - 1).abs().median():.2f}%.\n\n"
    )


def _groups_table(table: pd.DataFrame) -> str:
    """One row per group: its design, processes per cell, ratio CIs, A/A ratio, machine time and state."""
    return markdown_table(
        [
            "ISA level (· runtime)",
            "Experiment",
            "Group",
            "Design",
            "Processes per cell",
            "Widest ratio CI",
            "Median ratio CI",
            "A/A ratio [99% CI]",
            "Machine time",
            "State",
        ],
        [
            [
                r.isa_level + ("" if r.runtime == "default" else f" · {r.runtime}"),
                r.experiment,
                r.group,
                r.design or "—",
                r.processes_per_cell,
                _pct(r.widest_ratio_rel_ci99),
                _pct(r.median_ratio_rel_ci99),
                aa_text(r),
                f"{r.machine_s:.0f} s",
                f"**{r.state}**" if r.state in (IMPRECISE, BUDGET) else r.state,
            ]
            for r in table.itertuples()
        ],
    )


def _pct(v) -> str:
    """A relative interval width as '±1.2%'; '—' when there is none."""
    return "—" if v is None or pd.isna(v) else f"±{100 * v:.1f}%"


def aa_text(r) -> str:
    """'1.003 [0.991, 1.015]', bold when the interval excludes 1; '—' for a group without an A/A copy."""
    if r.aa_ratio is None or pd.isna(r.aa_ratio):
        return "—"
    text = f"{r.aa_ratio:.3f} [{r.aa_lower:.3f}, {r.aa_upper:.3f}]"
    return f"**{text}**" if r.aa_lower > 1 or r.aa_upper < 1 else text
