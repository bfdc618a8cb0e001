"""The native anchors' part of `analysis anchors`: each ratio read through each anchor a process timed beside its cells
(job setting native_anchors; the same machine code on every runtime, lab/dotnet/native), and each anchor's own ratio
across runtimes, which should be 1. A ratio of ratios is read only between processes that loaded the same library."""

from __future__ import annotations

import dataclasses
import math
import re
import statistics

import pandas as pd

from harness.model.stats.pairing import Replicate, anchored_value, process_of
from harness.model.stats.stats import Interval, ratio_interval

#: Fewest pairs a ratio needs to have a spread read here.
MIN_PAIRS = 3

#: The kinds of ratio the table has.
ACROSS, AA, NATIVE_ACROSS = "across runtimes", "A/A across processes", "native anchor across runtimes"


def log_sd(ratios: list[float]) -> float:
    return statistics.stdev(math.log(r) for r in ratios)


def holds_1(interval: Interval) -> bool:
    return interval.lower is not None and interval.upper is not None and interval.lower <= 1 <= interval.upper


#: A process's native anchors: the library's sha256 and each anchor's per-round times (ns per call).
NativeTimes = tuple[str, dict[str, list[float]]]


#: What an anchor's name may be: the names become column names and table labels (a run folder is untrusted input).
ANCHOR_NAME = re.compile(r"[a-z][a-z0-9_]{0,31}")


def native_times(rows: pd.DataFrame) -> dict[str, NativeTimes]:
    """Process id → its native anchors (those with a plain name), for the processes that timed them."""
    if "native_anchor_ns" not in rows:
        return {}
    out: dict[str, NativeTimes] = {}
    for row in rows.itertuples():
        process, times = process_of(row), row.native_anchor_ns
        if process and isinstance(times, dict) and times and isinstance(row.native_anchors_sha256, str):
            named = {k: v for k, v in times.items() if ANCHOR_NAME.fullmatch(k)}
            out[process] = (row.native_anchors_sha256, named)
    return out


def through_native(
    mine: dict[int, Replicate], native: dict[str, NativeTimes], name: str
) -> dict[int, tuple[str, float]]:
    """Per round, the library's sha256 and mine / the native anchor `name` inside mine's process."""
    out = {}
    for k, r in mine.items():
        sha, times = native.get(r.process or "", ("", {}))
        anchor = times.get(name, [])
        if len(anchor) == len(r.bursts):
            out[k] = (sha, anchored_value(dataclasses.replace(r, anchor=tuple(anchor))))
    return out


def native_names(native: dict[str, NativeTimes]) -> list[str]:
    return sorted({name for _, times in native.values() for name in times})


def native_columns(plain: list[float], through: dict[str, list[float]], estimate: bool) -> dict:
    """Each native anchor's spread, half-width and whether its interval holds 1 (with `estimate`, the anchored ratio's
    value beside the plain one)."""
    out: dict = {"plain_estimate": ratio_interval(plain).estimate} if estimate and len(plain) >= MIN_PAIRS else {}
    for name, ratios in through.items():
        if len(ratios) < MIN_PAIRS:
            continue
        interval = ratio_interval(ratios)
        out |= {
            f"native_{name}_log_sd": log_sd(ratios),
            f"native_{name}_rel_half_width": interval.relative_half_width,
            f"native_{name}_holds_1": holds_1(interval),
        }
        if estimate:
            out[f"native_{name}_estimate"] = interval.estimate
    return out


def ratio_of_ratios(
    mine: dict[int, Replicate], theirs: dict[int, Replicate], native: dict[str, NativeTimes], name: str
) -> list[float]:
    """Per round, (mine / anchor in its process) over (theirs / anchor in its process), both of one library."""
    on_mine, on_theirs = through_native(mine, native, name), through_native(theirs, native, name)
    return [
        on_mine[k][1] / on_theirs[k][1] for k in sorted(on_mine) if k in on_theirs and on_mine[k][0] == on_theirs[k][0]
    ]


def anchor_rows(
    label: str, mine: dict[int, Replicate], theirs: dict[int, Replicate], native: dict, names: list[str], pair: str
) -> list[dict]:
    """Each native anchor on one runtime over itself on the other, paired by round: a check that it is the same work."""
    rows: list[dict] = []
    for name in names:
        ratios = []
        for k in sorted(mine):
            a, b = (native.get(r.process or "", ("", {})) for r in (mine[k], theirs.get(k, mine[k])))
            if k in theirs and a[0] == b[0] and a[1].get(name) and b[1].get(name):
                ratios.append(statistics.median(a[1][name]) / statistics.median(b[1][name]))
        if len(ratios) >= MIN_PAIRS:
            interval = ratio_interval(ratios)
            rows.append(
                {
                    "kind": NATIVE_ACROSS,
                    "ratio": f"{label} native {name} {pair}",
                    "pairs": len(ratios),
                    "anchors": 0,
                    "plain_log_sd": log_sd(ratios),
                    "plain_rel_half_width": interval.relative_half_width,
                    "plain_holds_1": holds_1(interval),
                    "plain_estimate": interval.estimate,
                }
            )
    return rows
