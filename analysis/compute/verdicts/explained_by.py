"""What explains a figure that does not reproduce: its ratio on the runtime it is read on, beside the same ratio on that
runtime built with one of the write-up's library versions (the explain profile's builds, harness/config/
library_switches.py). A switch whose 99% interval lies apart from the figure's moves the ratio: the version is a factor
(toward the published ratio or away from it); one whose interval overlaps does not. A figure none of whose switches
moves it is "not explained by any factor changeable here", naming what was tried."""

from __future__ import annotations

import math

import pandas as pd

from analysis.compute.verdicts.setup_factors import LIBRARY_FACTOR, NO, SETTING_FACTORS, YES
from harness.model.experiment import Experiment
from harness.model.judging import INTERVAL_METRICS, NOT_REPRODUCED, REPRODUCED, SAME_DIRECTION, VOID
from harness.model.places import base_runtime, factor_text, is_switched, switched_libraries, switched_settings

#: The columns that name one figure at one place (its rows on other builds share them).
FIGURE = ["experiment", "scenario", "published_variant", "benchmark", "reference", "metric", "isa_level"]
#: The columns this module adds to the verdict table: what the switches did, and which setup factors were switched.
EXPLAINED_BY = "explained_by"
SWITCHED = "switched_factors"
#: What a figure's entry starts with when no switch moved its ratio; a figure that does not reproduce says instead
#: that nothing changeable here explains it.
NO_SWITCH_MOVES = "no switched factor moves it"
NOT_EXPLAINED = "not explained by any factor changeable here"
#: What a figure's entry says when its own published table shows the publisher's measurement was unstable (weaker
#: evidence: harness/model/published_stability.py).
UNSTABLE_PUBLISHED = "the published figure is unstable in its own table"


def _interval(row: pd.Series) -> tuple[float, float] | None:
    lower, upper = row.get("measured_ratio_lower"), row.get("measured_ratio_upper")
    if lower is None or upper is None or any(isinstance(v, float) and math.isnan(v) for v in (lower, upper)):
        return None
    return float(lower), float(upper)


def interval_apart(base: pd.Series, switched: pd.Series) -> bool:
    """True when the two rows' 99% intervals do not overlap: the switch moves the ratio."""
    a, b = _interval(base), _interval(switched)
    return a is not None and b is not None and (a[1] < b[0] or b[1] < a[0])


def switch_text(base: pd.Series, switched: pd.Series) -> tuple[str, bool]:
    """'Newtonsoft.Json 13.0.3: 0.85× → 0.91× (moves it toward the published 1.90×)' and whether it moves the ratio."""
    factor = factor_text(str(switched["runtime"]))
    a, b = _interval(base), _interval(switched)
    before, after, published = base["measured_ratio"], switched["measured_ratio"], base["published_ratio"]
    if a is None or b is None or before is None or after is None:
        return f"{factor}: no interval to compare", False
    if interval_apart(base, switched):
        toward = abs(math.log(after / published)) < abs(math.log(before / published))
        reproduced = " (reproduced with it)" if str(switched["verdict"]) == REPRODUCED else ""
        way = "toward" if toward else "away from"
        return (
            f"{factor}: {before:.2f}× → {after:.2f}× (moves it {way} the published {published:.2f}×){reproduced}",
            True,
        )
    return f"{factor}: {before:.2f}× → {after:.2f}× (within each other's 99% intervals: not a factor)", False


def explanation(base: pd.Series, switched: pd.DataFrame) -> str:
    """One figure's 'explained by' text from its rows on the switched builds ('' when none was measured)."""
    void = [row for _, row in switched.iterrows() if str(row["verdict"]) == VOID]
    compared = [row for _, row in switched.iterrows() if _interval(row) is not None and str(row["verdict"]) != VOID]
    if switched.empty or _interval(base) is None:
        return ""
    voided = [f"{factor_text(str(row['runtime']))}: void (verification failed), not compared" for row in void]
    if not compared:  # a switched build that failed, or a figure without an interval: nothing was compared
        return "; ".join(["not compared: no switched build has a ratio with an interval", *voided])
    texts = [switch_text(base, row) for row in compared]
    moved = [text for text, moves in texts if moves]
    if moved:
        return "; ".join(moved + voided)
    tried = ", ".join(text.split(":", 1)[0] for text, _ in texts)
    return f"{NO_SWITCH_MOVES} (tried: {tried}); " + "; ".join([t for t, _ in texts] + voided)


def with_explanations(verdicts: pd.DataFrame) -> pd.DataFrame:
    """The verdict table with EXPLAINED_BY: for each primary figure judged by its interval (time, memory) and measured
    also on builds of its runtime with the write-up's library versions, what each switch did to its ratio ('' for the
    others: an allocation is judged in bytes, which no switch here is compared on)."""
    out = verdicts.copy()
    out[EXPLAINED_BY] = ""
    if out.empty or "runtime" not in out:
        return out
    out[SWITCHED] = ""
    for index, base in out[out["primary"].astype(bool) & out["metric"].isin(INTERVAL_METRICS)].iterrows():
        same = (out[FIGURE] == base[FIGURE]).all(axis=1) & switched_from(out["runtime"], str(base["runtime"]))
        out.at[index, EXPLAINED_BY] = explanation(base, out[same])
        out.at[index, SWITCHED] = "; ".join(dict.fromkeys(f for r in out.loc[same, "runtime"] for f in factors_of(r)))
    return out


def switched_from(places: pd.Series, runtime: str) -> pd.Series:
    """Which of `places` switch a factor of `runtime` (a build of it with library versions, or it with a run setting
    switched: harness/model/places.py)."""
    return places.astype(str).map(lambda place: is_switched(place) and base_runtime(place) == runtime)


def factors_of(place: str) -> list[str]:
    """The setup factors (the Setup table's names) a switched place changed: 'Library versions', 'Tiered
    compilation'."""
    return ([LIBRARY_FACTOR] if switched_libraries(place) else []) + [
        SETTING_FACTORS.get(name, name) for name, _ in switched_settings(place)
    ]


def remaining_factors(setup: pd.DataFrame, experiment: str, hardware: str) -> tuple[list[str], list[str]]:
    """The setup factors of one published machine that differ: (changeable here, not changeable here)."""
    rows = setup[(setup["experiment"] == experiment) & (setup["hardware"] == hardware)] if not setup.empty else setup
    if rows.empty:
        return [], []
    return list(rows.loc[rows["changeable"] == YES, "factor"]), list(rows.loc[rows["changeable"] == NO, "factor"])


def published_evidence(row: pd.Series) -> list[str]:
    """What the published table's own statistics say of a figure that disagrees: that the publisher's run was unstable
    (its rows' StdDev, Min and Median), and whether the published ratio's own interval (from both rows' Error, 99.9 %)
    reaches the measured interval."""
    parts = []
    unstable = row.get("published_instability")
    if isinstance(unstable, str) and unstable:
        parts.append(f"{UNSTABLE_PUBLISHED}: {unstable}")
    share, published, measured = row.get("published_ratio_error"), row.get("published_ratio"), _interval(row)
    if isinstance(share, float) and not math.isnan(share) and measured is not None and published:
        low, high = published * (1 - share), published * (1 + share)
        reaches = low <= measured[1] and measured[0] <= high
        parts.append(
            f"the published ratio's own interval (±{share:.1%}, from its table's Error) "
            + ("reaches the measured interval" if reaches else "does not reach the measured interval")
        )
    return parts


def with_setup_factors(verdicts: pd.DataFrame, setup: pd.DataFrame, experiments: list[Experiment]) -> pd.DataFrame:
    """Every primary figure that is not reproduced or same direction only gets, in EXPLAINED_BY, what its switches
    did (with_explanations) or that none was switched, then the setup factors left that differ: those this host could
    change and those it cannot (the report's Setup table, analysis/compute/verdicts/setup_factors.py)."""
    keys = {(e.id, h.description): h.key for e in experiments for h in e.hardware.values()}
    out = verdicts.copy()
    if out.empty:
        return out
    for index, row in out[out["primary"].astype(bool)].iterrows():
        if str(row["verdict"]) not in (NOT_REPRODUCED, SAME_DIRECTION):
            continue
        hardware = keys.get((row["experiment"], row["published_hardware"]), "")
        can, cannot = remaining_factors(setup, row["experiment"], hardware)
        switched = bool(row[EXPLAINED_BY])
        can = [factor for factor in can if factor not in str(row.get(SWITCHED, "")).split("; ")]
        parts = [
            str(row[EXPLAINED_BY]).replace(NO_SWITCH_MOVES, NOT_EXPLAINED, 1)
            if switched
            else "no factor switched in this run"
        ]
        parts += published_evidence(row)
        parts += [f"changeable here, not switched: {', '.join(can)}"] if can else []
        parts += [f"differs, not changeable here: {', '.join(cannot)}"] if cannot else []
        out.at[index, EXPLAINED_BY] = "; ".join(parts)
    return out
