"""Why a verdict is inconclusive: how far its measured ratio lies from the tolerance band's edge, against its interval.

An interval that straddles the band's edge can be narrowed by more processes, but only a ratio whose point lies clearly
off the edge ever leaves it: a ratio measured on the edge itself stays inconclusive at any precision. For each
inconclusive time verdict this module names the edge, the point's distance from it (on the log scale, as the interval is
taken), and about how many processes an interval just narrow enough to clear the edge would take (the processes scale
with
the square of the width, the t quantile's change ignored). Points nearer the edge than the run's precision target cannot
be decided by a run that meets its target: they are listed as 'on the edge'.
"""

from __future__ import annotations

import math
from typing import TypedDict

import pandas as pd

from analysis.formatting.tables import markdown_table
from harness.model.folder.run_records import RunRecord
from harness.model.judging import INCONCLUSIVE, TOLERANCE

#: Where the run states no precision target: the default profile's (experiments/profiles.toml).
DEFAULT_TARGET = 0.02
#: Beyond this many times a verdict's processes, 'processes to decide' says only that it is beyond it.
MAX_FACTOR = 100


class UndecidedRow(TypedDict):
    """One row of undecided_table: the verdict's claim and measurement (a Verdict's, analysis/compute/verdicts/
    verdict_row.py, as the verdicts frame holds them: a number it lacks may be NaN), the band's edge its interval
    straddles, the point's distance from it and the interval's half-width (log scale), about how many processes would
    decide it, and why it is undecided; the numbers None where there is no interval."""

    experiment: str
    scenario: str
    published_variant: str
    published_ratio: float
    measured_ratio: float | None
    lower: float | None
    upper: float | None
    pairs: int | None
    edge: float | None
    distance: float | None
    half_width: float | None
    processes_to_decide: int | None
    reason: str


def undecided_table(
    verdicts: pd.DataFrame, target: float = DEFAULT_TARGET, tolerance: float = TOLERANCE
) -> pd.DataFrame:
    """One row per primary inconclusive time verdict: the edge it straddles, the distance to it, what deciding would
    take."""
    if verdicts.empty:
        return pd.DataFrame()
    mine = verdicts[verdicts["primary"] & (verdicts["verdict"] == INCONCLUSIVE) & (verdicts["metric"] == "time")]
    out: list[UndecidedRow] = []
    for r in mine.itertuples():
        edge: float | None = None
        distance: float | None = None
        half: float | None = None
        needed: int | None = None
        if _missing(r.measured_ratio_lower) or _missing(r.measured_ratio_upper) or _missing(r.measured_ratio):
            reason = "no interval (one process)"
        else:
            low, high = r.published_ratio * (1 - tolerance), r.published_ratio * (1 + tolerance)
            straddled = [e for e in (low, high) if r.measured_ratio_lower <= e <= r.measured_ratio_upper]
            edge = min(straddled, key=lambda e: abs(math.log(r.measured_ratio / e)))
            distance = abs(math.log(r.measured_ratio / edge))
            half = (math.log(r.measured_ratio_upper) - math.log(r.measured_ratio_lower)) / 2
            needed = None if distance == 0 or not r.pairs else math.ceil(r.pairs * (half / distance) ** 2)
            if len(straddled) == 2:
                reason = "wide: the interval straddles both edges"
            elif distance < target:
                reason = f"on the edge: nearer than the ±{target:.0%} target"
            else:
                reason = "decidable with more processes"
        out.append(
            UndecidedRow(
                experiment=r.experiment,
                scenario=r.scenario,
                published_variant=r.published_variant,
                published_ratio=r.published_ratio,
                measured_ratio=r.measured_ratio,
                lower=r.measured_ratio_lower,
                upper=r.measured_ratio_upper,
                pairs=r.pairs,
                edge=edge,
                distance=distance,
                half_width=half,
                processes_to_decide=needed,
                reason=reason,
            )
        )
    return pd.DataFrame(out)


def _processes_text(needed: float | None, pairs: float | None) -> str:
    """'about 95 (4.2×)', or 'over 100× the processes' where the factor says no run will get there."""
    if needed is None or _missing(needed) or not pairs or _missing(pairs):
        return "—"
    factor = needed / pairs
    return f"over {MAX_FACTOR}× the processes" if factor > MAX_FACTOR else f"about {int(needed)} ({factor:.1f}×)"


def _missing(value: object) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def undecided_markdown(verdicts: pd.DataFrame, run: RunRecord, tolerance: float = TOLERANCE) -> str:
    """The 'Why inconclusive' subsection: a count per reason and one line per verdict."""
    target = run.target_rel_ci or DEFAULT_TARGET
    table = undecided_table(verdicts, target, tolerance)
    if table.empty:
        return ""
    counts = table["reason"].value_counts()
    rows = [
        [
            f"{r.experiment} · {r.scenario}",
            r.published_variant,
            f"{r.published_ratio:.3g}×",
            "—" if r.edge is None else f"{r.measured_ratio:.3f}× [{r.lower:.3f}, {r.upper:.3f}]",
            "—" if r.edge is None else f"{r.edge:.3f}×",
            "—" if r.distance is None else f"{100 * r.distance:.1f}%",
            "—" if r.half_width is None else f"±{100 * r.half_width:.1f}%",
            "—" if r.pairs is None or _missing(r.pairs) else f"{int(r.pairs)}",
            _processes_text(r.processes_to_decide, r.pairs),
            r.reason,
        ]
        for r in table.itertuples()
    ]
    return (
        f"### Why {len(table)} verdicts are inconclusive\n\n"
        + "; ".join(f"{n} {reason}" for reason, n in counts.items())
        + ". "
        f"A verdict is inconclusive while its interval straddles an edge of the ±{tolerance:.0%} band; it leaves it "
        "only when the "
        "interval is narrower than the point's distance from that edge. 'Processes to decide' is about how many paired "
        "processes "
        "an interval that narrow takes (processes grow with the square of the width). A point nearer the edge than the "
        "run's "
        f"±{target:.0%} precision target stays inconclusive in any run that stops at that target: the published ratio "
        "and the "
        "measured one differ by almost exactly the tolerance.\n\n"
        + markdown_table(
            [
                "Claim",
                "Published variant",
                "Published",
                "Measured (99% CI)",
                "Band edge",
                "Point to edge",
                "Half-width",
                "Processes",
                "Processes to decide",
                "Reason",
            ],
            rows,
        )
        + "\n"
    )
