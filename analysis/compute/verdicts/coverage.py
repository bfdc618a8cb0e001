"""Coverage: one row per published figure, saying how a run accounts for it (compared, baseline, cannot reproduce,
failed, unavailable, or not in this run's plan)."""

from __future__ import annotations

import pandas as pd

from harness.model.experiment import Experiment
from harness.model.folder.records import MEASURED, UNAVAILABLE
from harness.model.judging import CANNOT_REPRODUCE, NOT_MEASURED


def coverage(experiments: list[Experiment], cells: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """One row per published figure: how this run accounts for it (compared, baseline, cannot reproduce, failed,
    or not in this run's plan)."""
    measured = cells[cells["status"].isin(MEASURED)]
    out = []
    for exp in experiments:
        for claim in exp.claims:
            judged = verdicts[
                (verdicts["experiment"] == exp.id)
                & (verdicts["scenario"] == claim.scenario)
                & (verdicts["published_variant"] == claim.published_variant)
                & verdicts["primary"]
            ]
            if claim.cannot_reproduce:
                status = CANNOT_REPRODUCE
            elif claim.benchmark == claim.reference and claim.at == claim.reference_at:
                level = claim.reference_side("isa_level", exp.hardware[claim.hardware].isa_level)
                hit = measured[(measured["experiment"] == exp.id) & (measured["benchmark"] == claim.benchmark)]
                status = "baseline, measured" if not hit.empty else "not in this run"
                status += "" if hit.empty or level in set(hit["isa_requested"]) else " (at native)"
            elif judged.empty or judged["verdict"].str.startswith(NOT_MEASURED).all():
                status = "not in this run"
            elif judged["verdict"].str.startswith(UNAVAILABLE).any():
                status = UNAVAILABLE
            elif judged["verdict"].str.contains("failed: ").any():
                status = "failed"
            else:
                status = "compared"
            out.append(
                {
                    "experiment": exp.id,
                    "scenario": claim.scenario,
                    "published_variant": claim.published_variant,
                    "status": status,
                }
            )
    return pd.DataFrame(out, columns=["experiment", "scenario", "published_variant", "status"])
