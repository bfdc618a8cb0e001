"""Comparing two runs: every cell present in both, its time ratio b/a, and the drift of its ratio to the baseline.

Both comparisons work on the log scale over process-level replicates: the two runs' processes are
independent samples, so the interval of b/a is Welch's t interval on the difference of mean log
process means (scipy's Welch t-test gives its p-value). As in dotnet/performance's ResultsComparer,
a noise threshold separates a change worth reporting from one too small to matter:
**faster** / **slower** need the whole 99% interval beyond 1 and the estimate beyond the threshold;
**same** needs the whole interval within ±threshold; anything else is **inconclusive**.
"""

from __future__ import annotations

import math

import numpy as np
import pandas as pd
from scipy import stats as _stats

from analysis.compute.aggregate import RatioBook
from analysis.compute.cold_start import split_measures
from harness.model import judging as v
from harness.model.defaults import CONFIDENCE_LEVEL, REPLICATE_STATISTIC
from harness.model.errors import HarnessError
from harness.model.folder.records import MEASURED
from harness.model.judging import INCONCLUSIVE, TOLERANCE
from harness.model.stats.pairing import paired_ratios

#: A change smaller than this (relative) is reported as 'same' when the interval allows it.
DEFAULT_THRESHOLD = 0.05

FASTER, SLOWER, SAME = "faster", "slower", "same"


def welch_log_ratio(
    a: list[float], b: list[float], level: float = CONFIDENCE_LEVEL
) -> tuple[float, float | None, float | None, float | None]:
    """(exp(mean log b − mean log a), lower, upper, p-value); bounds None when a side has fewer than two values."""
    la, lb = np.log(np.asarray(a, float)), np.log(np.asarray(b, float))
    diff = float(lb.mean() - la.mean())
    if len(la) < 2 or len(lb) < 2:
        return math.exp(diff), None, None, None
    va, vb = la.var(ddof=1) / len(la), lb.var(ddof=1) / len(lb)
    se = math.sqrt(va + vb)
    if se == 0:
        return math.exp(diff), math.exp(diff), math.exp(diff), None
    df = (va + vb) ** 2 / (va**2 / (len(la) - 1) + vb**2 / (len(lb) - 1))
    half = float(_stats.t.ppf(0.5 + level / 2, df)) * se
    p = float(_stats.ttest_ind(lb, la, equal_var=False).pvalue)
    return math.exp(diff), math.exp(diff - half), math.exp(diff + half), p


def classify(ratio: float, lower: float | None, upper: float | None, threshold: float = DEFAULT_THRESHOLD) -> str:
    """faster / slower / same / inconclusive, from the ratio b/a and its interval."""
    if lower is None or upper is None:
        return INCONCLUSIVE
    if lower > 1 and ratio >= 1 + threshold:
        return SLOWER
    if upper < 1 and ratio <= 1 - threshold:
        return FASTER
    if 1 - threshold <= lower and upper <= 1 + threshold:
        return SAME
    return INCONCLUSIVE


def _measured(rows: pd.DataFrame) -> pd.DataFrame:
    return rows[rows["status"].isin(MEASURED) & ~rows["emulated"].fillna(False).astype(bool)]


def compare_cells(rows_a: pd.DataFrame, rows_b: pd.DataFrame, threshold: float = DEFAULT_THRESHOLD) -> pd.DataFrame:
    """One row per cell measured in both runs: means, b/a with 99% CI and p-value, and its class."""
    a, b = _measured(rows_a), _measured(rows_b)
    out = []
    for cell_id in [c for c in dict.fromkeys(a["cell_id"]) if c in set(b["cell_id"])]:
        ma = a.loc[a["cell_id"] == cell_id, REPLICATE_STATISTIC].tolist()
        mb = b.loc[b["cell_id"] == cell_id, REPLICATE_STATISTIC].tolist()
        ratio, lower, upper, p = welch_log_ratio(ma, mb)
        first = a[a["cell_id"] == cell_id].iloc[0]
        out.append(
            {
                "cell_id": cell_id,
                "experiment": first["experiment"],
                "benchmark": first["benchmark"],
                "baseline": first["baseline"],
                "isa_level": first["isa_requested"],
                "time_a_ns": float(np.mean(ma)),
                "time_b_ns": float(np.mean(mb)),
                "processes_a": len(ma),
                "processes_b": len(mb),
                "ratio_b_over_a": ratio,
                "ci99_lower": lower,
                "ci99_upper": upper,
                "p_value": p,
                "change": classify(ratio, lower, upper, threshold),
            }
        )
    return pd.DataFrame(out)


class NothingInCommonError(HarnessError):
    """Two runs without a cell both measured: a comparison would be an empty table."""


def measured_summary(rows: pd.DataFrame) -> str:
    """'38 cells (experiments 000, 001; ISA levels native, no-avx512; runtimes 10.0.12)': what a run measured."""
    measured = _measured(rows)
    if measured.empty:
        return "nothing (no row with a measurement)"

    def names(column: str) -> str:
        return ", ".join(sorted({str(v) for v in measured[column].dropna()})[:10])

    return (
        f"{measured['cell_id'].nunique()} cells (experiments {names('experiment')}; ISA levels "
        f"{names('isa_requested')}; runtimes {names('runtime_requested')})"
    )


def require_common_cells(cells: pd.DataFrame, rows_a: pd.DataFrame, rows_b: pd.DataFrame, a: str, b: str) -> None:
    """NothingInCommonError naming what each run measured, when no cell was measured in both (`cells` is empty)."""
    if not cells.empty:
        return
    raise NothingInCommonError(
        f"runs {a} and {b} have no measured cell in common: {a} measured {measured_summary(rows_a)}; {b} measured "
        f"{measured_summary(rows_b)}",
        "compare two runs of the same cells (a cell is one benchmark of an experiment at one ISA level on one "
        "runtime), e.g. one profile run on two machines or at two commits; nothing was written",
    )


def compare_baseline_ratios(rows_a: pd.DataFrame, rows_b: pd.DataFrame) -> pd.DataFrame:
    """Per non-baseline cell in both runs: its ratio to the baseline in each run, and whether they agree
    (the 99% interval of their quotient, Welch over the two runs' paired log ratios, contains 1). Cold starts are left
    out: a cold cell is one row of many timed processes, with no per-process pairs to compare (the cells table has
    them).
    """
    a, b = (split_measures(_measured(rows))[0] for rows in (rows_a, rows_b))
    book_a, book_b = RatioBook(a), RatioBook(b)
    out = []
    for cell_id in [c for c in dict.fromkeys(a["cell_id"]) if c in set(b["cell_id"])]:
        first = a[a["cell_id"] == cell_id].iloc[0]
        if first["benchmark"] == first["baseline"]:
            continue
        key = (
            first["experiment"],
            first["benchmark"],
            first["baseline"],
            first["isa_requested"],
            first["runtime_requested"],
        )
        ia, ib = (book.interval(*key[:4], runtime=key[4]) for book in (book_a, book_b))
        pairs_a, pairs_b = _pairs(book_a, key), _pairs(book_b, key)
        if ia is None or ib is None or not pairs_a or not pairs_b:
            continue
        drift, lower, upper, p = welch_log_ratio(pairs_a, pairs_b)
        out.append(
            {
                "cell_id": cell_id,
                "experiment": key[0],
                "benchmark": key[1],
                "isa_level": key[3],
                "runtime": key[4],
                "ratio_a": ia.estimate,
                "ratio_a_lower": ia.lower,
                "ratio_a_upper": ia.upper,
                "ratio_b": ib.estimate,
                "ratio_b_lower": ib.lower,
                "ratio_b_upper": ib.upper,
                "drift": drift,
                "drift_ci99_lower": lower,
                "drift_ci99_upper": upper,
                "p_value": p,
                "agree": None if lower is None or upper is None else bool(lower <= 1 <= upper),
            }
        )
    return pd.DataFrame(out)


def _pairs(book: RatioBook, key: tuple[str, str, str, str, str]) -> list[float]:
    experiment, benchmark, baseline, level, runtime = key
    return paired_ratios(
        book.replicates(experiment, benchmark, level, runtime), book.replicates(experiment, baseline, level, runtime)
    )


#: Verdicts decided by measurement; the others (void, cannot reproduce, not measured) do not depend on the numbers.
MEASURED_VERDICTS = (v.REPRODUCED, v.SAME_DIRECTION, v.INCONCLUSIVE, v.NOT_REPRODUCED)

#: What identifies one published figure's verdict in a run (at its primary ISA level and runtime).
VERDICT_KEY = ["experiment", "scenario", "published_variant", "metric", "isa_level", "runtime"]


def compare_verdicts(
    verdicts_a: pd.DataFrame, verdicts_b: pd.DataFrame, ratios: pd.DataFrame | None = None
) -> pd.DataFrame:
    """Each primary verdict judged in both runs: both verdicts, whether they are the same, whether the numbers decided
    them (MEASURED_VERDICTS in either run), and for a difference its reason, from the ratio's drift between the runs."""
    if verdicts_a.empty or verdicts_b.empty:
        return pd.DataFrame()
    keep = VERDICT_KEY + [
        "benchmark",
        "reference",
        "published_ratio",
        "measured_ratio",
        "measured_ratio_lower",
        "measured_ratio_upper",
        "verdict",
    ]
    a = verdicts_a[verdicts_a["primary"].astype(bool)][keep]
    b = verdicts_b[verdicts_b["primary"].astype(bool)][keep]
    both = a.merge(b, on=VERDICT_KEY + ["benchmark", "reference", "published_ratio"], suffixes=("_a", "_b"))
    both["same"] = both["verdict_a"] == both["verdict_b"]
    both["measured"] = both["verdict_a"].isin(MEASURED_VERDICTS) | both["verdict_b"].isin(MEASURED_VERDICTS)
    both["reason"] = [None if r.same else _difference(r, ratios) for r in both.itertuples()]
    return both


def _difference(r, ratios: pd.DataFrame | None) -> str:
    """Why one figure's verdict differs between two runs, in a sentence."""
    if not (r.verdict_a in MEASURED_VERDICTS and r.verdict_b in MEASURED_VERDICTS):
        return (
            f"{r.verdict_a} in one run, {r.verdict_b} in the other (a verification or a failed cell, not the numbers)"
        )
    low, high = r.published_ratio * (1 - TOLERANCE), r.published_ratio * (1 + TOLERANCE)
    edge = low if abs(math.log(r.measured_ratio_a / low)) < abs(math.log(r.measured_ratio_a / high)) else high
    drift = None
    if ratios is not None and not ratios.empty:
        match = ratios[
            (ratios["experiment"] == r.experiment)
            & (ratios["benchmark"] == r.benchmark)
            & (ratios["isa_level"] == r.isa_level)
            & (ratios["runtime"] == r.runtime)
        ]
        drift = match.iloc[0] if not match.empty else None
    where = f"the band's edge at {edge:.3g} (published {r.published_ratio:.3g} ± {TOLERANCE:.0%})"
    if drift is not None and pd.notna(drift["agree"]) and not bool(drift["agree"]):
        return (
            f"the ratio moved between the runs: {r.measured_ratio_a:.3g} → {r.measured_ratio_b:.3g} (b/a "
            f"{drift['drift']:.3f} "
            f"[{drift['drift_ci99_lower']:.3f}, {drift['drift_ci99_upper']:.3f}]), across {where}"
        )
    agreed = (
        "the two ratios agree within their intervals"
        if drift is not None
        else "no drift test (a ratio across ISA levels or runtimes, not to a baseline in the same group)"
    )
    crossing = [
        name
        for name, lower, upper in (
            ("a", r.measured_ratio_lower_a, r.measured_ratio_upper_a),
            ("b", r.measured_ratio_lower_b, r.measured_ratio_upper_b),
        )
        if lower <= edge <= upper
    ]
    crosses = f"run {' and run '.join(crossing)}'s interval crosses" if crossing else "both lie near"
    return (
        f"{agreed}: {r.measured_ratio_a:.3g} [{r.measured_ratio_lower_a:.3g}, {r.measured_ratio_upper_a:.3g}] and "
        f"{r.measured_ratio_b:.3g} [{r.measured_ratio_lower_b:.3g}, {r.measured_ratio_upper_b:.3g}]; {crosses} {where}"
    )
