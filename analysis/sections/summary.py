"""The summary: cells, verdict counts, median intervals."""

from __future__ import annotations

from collections import Counter

import pandas as pd

from analysis.compute.aggregate import median_relative_ci
from harness.model.folder.run_records import NoiseProbeRecord
from harness.model.judging import BYTES_ONLY, INCONCLUSIVE, VOID


def summary_markdown(cells: pd.DataFrame, verdicts: pd.DataFrame, probe: NoiseProbeRecord | None = None) -> str:
    """Counts of cells and verdicts, the precision of the run, and what its noise probe forecast of both."""
    counts = Counter(cells["status"])
    precision = median_relative_ci(cells)
    ratio_precision = median_relative_ci(cells, "ratio_rel_ci99")
    judged = verdicts[verdicts["primary"]] if not verdicts.empty else verdicts
    kinds = judged.loc[judged["verdict"] != BYTES_ONLY, "verdict"] if not verdicts.empty else pd.Series(dtype=str)
    primary = Counter(verdict if verdict == VOID else verdict.split(": ")[0] for verdict in kinds)  # reasons: the table
    in_bytes = Counter(judged["bytes_verdict"].dropna()) if "bytes_verdict" in judged else Counter()

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.2f}%"

    lines = [
        "## Summary\n",
        f"- Cells: {len(cells)}"
        + (" — " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) if counts else "")
        + ".",
        f"- Median relative 99% CI half-width, over processes: {pct(ratio_precision)} for ratios to the baseline "
        f"(paired processes), {pct(precision)} for cell means.",
        "- Reproduction verdicts (at the ISA level matching each published CPU): "
        + (", ".join(f"{n} {v}" for v, n in primary.most_common()) or "none")
        + ".",
        *([forecast_line(probe, ratio_precision, primary[INCONCLUSIVE])] if probe else []),
        *(
            [
                "- Published Allocated figures, in bytes: "
                + ", ".join(f"{n} {v}" for v, n in in_bytes.most_common())
                + "."
            ]
            if in_bytes
            else []
        ),
    ]
    return "\n".join(lines) + "\n"


def forecast_line(probe: NoiseProbeRecord, reached_ci: float | None, inconclusive: int) -> str:
    """The noise probe's forecast beside what the run reached."""

    def pct(value: float | None) -> str:
        return "—" if value is None else f"±{100 * value:.2f}%"

    expected = (
        ""
        if probe.forecast_inconclusive is None
        else f" and about {probe.forecast_inconclusive:.0f} of its {probe.claims} claims inconclusive"
    )
    named = ", ".join(g[:80] for g in probe.groups[:3]) + (", …" if len(probe.groups) > 3 else "")
    return (
        f"- Noise probe at the start ({len(probe.groups)} groups × {probe.rounds} processes, {named}): "
        f"forecast a median ratio "
        f"CI of {pct(probe.forecast_median_rel_ci)}{expected} for the {probe.budget_min:g}-min budget; "
        f"the run reached {pct(reached_ci)}, with {inconclusive} verdicts inconclusive."
    )
