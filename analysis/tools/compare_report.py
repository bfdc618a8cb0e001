"""compare.md: the text of a two-run comparison (the writer saves it)."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from analysis.compute.load import RunData
from analysis.formatting.tables import format_interval, format_ns, markdown_table
from harness.model.folder.run_folder import RESULTS_FILE


def comparison_markdown(
    name_a: str,
    name_b: str,
    cells: pd.DataFrame,
    ratios: pd.DataFrame,
    threshold: float,
    chart: str | None,
    verdicts: pd.DataFrame | None = None,
    notes: list[str] | None = None,
) -> str:
    """Summary, the verdicts of both runs side by side, per-cell changes, and the drift of every baseline ratio;
    `notes` (run_notes) go under the title."""
    lines = _summary_lines(name_a, name_b, cells, ratios, threshold)
    lines[1:1] = [f"{note}\n" for note in notes or []]
    if verdicts is not None and not verdicts.empty:
        lines.append(verdicts_summary(verdicts) + "\n")
    if chart:
        lines.append(f"![b over a]({chart}.png) ([SVG]({chart}.svg))\n")
    if verdicts is not None and not verdicts.empty and not verdicts["same"].all():
        lines.append("## Verdicts that differ\n")
        lines.append(_differing_verdicts_table(verdicts) + "\n")
    lines.append("## Cells\n")
    lines.append(_cells_table(cells))
    if not ratios.empty:
        lines.append("\n## Ratios to the baseline\n")
        lines.append(_ratios_table(ratios))
    return "\n".join(lines)


def _summary_lines(name_a: str, name_b: str, cells: pd.DataFrame, ratios: pd.DataFrame, threshold: float) -> list[str]:
    """The title, the cells' changes counted with what each change means, and how many baseline ratios agree."""
    counts = Counter(cells["change"]) if not cells.empty else Counter()
    agree = int(ratios["agree"].fillna(False).sum()) if not ratios.empty else 0
    return [
        f"# Run comparison: {name_b} against {name_a}\n",
        f"Cells measured in both runs: {len(cells)} — "
        + (", ".join(f"{n} {c}" for c, n in counts.most_common()) or "none")
        + ". "
        "A change is **faster**/**slower** when the 99% interval of b/a excludes 1 and the estimate is beyond "
        f"±{threshold:.0%}; "
        f"**same** when the whole interval lies within ±{threshold:.0%}; otherwise **inconclusive**. Intervals: "
        "Welch's t on the "
        "log of the two runs' process means.\n",
        f"Baseline ratios in both runs: {len(ratios)}; {agree} agree (the 99% interval of ratio_b / ratio_a contains 1)"
        + (f", {len(ratios) - agree} do not." if len(ratios) - agree else ".")
        + "\n",
    ]


def _differing_verdicts_table(verdicts: pd.DataFrame) -> str:
    """The published figures whose verdicts differ between the runs, with both verdicts and why."""
    differ = verdicts[~verdicts["same"]]
    return markdown_table(
        ["Figure", "Run a", "Run b", "Why"],
        [
            [
                f"{r.experiment} · {r.scenario} · {r.published_variant} ({r.isa_level} · {r.runtime})",
                r.verdict_a,
                r.verdict_b,
                r.reason,
            ]
            for r in differ.itertuples()
        ],
    )


def _cells_table(cells: pd.DataFrame) -> str:
    """Every cell measured in both runs: its time in each, b/a with its 99% interval, p and the change."""
    return markdown_table(
        ["Cell", "Run a", "Run b", "b / a [99% CI]", "p", "Change"],
        [
            [
                r.cell_id,
                f"{format_ns(r.time_a_ns)} (n={r.processes_a})",
                f"{format_ns(r.time_b_ns)} (n={r.processes_b})",
                format_interval(r.ratio_b_over_a, r.ci99_lower, r.ci99_upper),
                "—" if pd.isna(r.p_value) else f"{r.p_value:.3g}",
                f"**{r.change}**",
            ]
            for r in cells.itertuples()
        ],
    )


def _ratios_table(ratios: pd.DataFrame) -> str:
    """Every baseline ratio in both runs, its drift b/a and whether the two agree."""
    return markdown_table(
        ["Cell", "Ratio in a [99% CI]", "Ratio in b [99% CI]", "b / a [99% CI]", "Agree"],
        [
            [
                r.cell_id,
                format_interval(r.ratio_a, r.ratio_a_lower, r.ratio_a_upper),
                format_interval(r.ratio_b, r.ratio_b_lower, r.ratio_b_upper),
                format_interval(r.drift, r.drift_ci99_lower, r.drift_ci99_upper),
                {True: "yes", False: "**no**"}.get(r.agree, "—"),
            ]
            for r in ratios.itertuples()
        ],
    )


def verdicts_summary(verdicts: pd.DataFrame) -> str:
    """'Verdicts in both runs: N; M the same (...); of those the numbers decided: ...'."""
    same = int(verdicts["same"].sum())
    measured = verdicts[verdicts["measured"]]
    measured_same = int(measured["same"].sum())
    return (
        f"Published figures with a verdict in both runs (at their primary ISA level and runtime): {len(verdicts)}; "
        f"**{same} "
        f"({100 * same / len(verdicts):.1f}%) the same**. Of the {len(measured)} decided by the measurements "
        "(reproduced, same "
        f"direction only, inconclusive, not reproduced in either run), {measured_same} "
        f"({100 * measured_same / max(len(measured), 1):.1f}%) "
        "the same; each difference is listed below with its reason."
    )


def run_notes(side: str, run: RunData, experiments_note: str) -> list[str]:
    """What a reader of the comparison must know of run `side` ('a' or 'b'): the torn last line of its results.jsonl
    left out (a run stopped mid-write), and experiment files that are not its own copy."""
    notes = []
    if run.torn_line is not None:
        line = run.torn_line
        notes.append(
            f"**Left out of run {side}**: 1 line of `{run.directory.name}/{RESULTS_FILE}` (line {line.number}, "
            f"{line.why}): a run stopped mid-write leaves such a line; `just resume` measures that process again."
        )
    if experiments_note:
        notes.append(f"**Run {side}'s experiment files**: {experiments_note}")
    return notes
