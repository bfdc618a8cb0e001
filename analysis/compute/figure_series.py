"""A figure's history (analysis/store/queries.py figure_history) as series: the runs of one host, runtime, ISA level,
benchmark and reference in time order, each with its readings and the change points found in them
(change_points.py). A step between two hosts or two runtimes is not a change of the figure, so a change is only looked
for inside a series."""

from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from analysis.compute.change_points import ChangePoint, Reading, change_points

#: What makes one series of a figure's history.
SERIES_KEY = ("host_id", "cpu_model", "runtime", "isa_level", "benchmark", "reference")


@dataclass(frozen=True)
class FigureSeries:
    """One series of a figure's history: where it was read, its readings oldest first, the changes found in them."""

    cpu_model: str
    runtime: str
    isa_level: str
    benchmark: str
    reference: str
    primary: bool
    readings: tuple[Reading, ...]
    changes: tuple[ChangePoint, ...]

    @property
    def label(self) -> str:
        return f"{self.cpu_model} · {self.runtime} · {self.isa_level}"


def _number(value: object) -> float:
    try:
        number = float(value)  # type: ignore[arg-type]
    except (TypeError, ValueError):
        return math.nan
    return number


def _pairs(value: object) -> int | None:
    number = _number(value)
    return int(number) if math.isfinite(number) and number >= 2 else None


def figure_series(history: pd.DataFrame) -> list[FigureSeries]:
    """The history's series, those with a primary reading first, each with its change points."""
    if history.empty:
        return []
    frame = history.assign(cpu_model=history["cpu_model"].fillna("unknown CPU"), host_id=history["host_id"].fillna(""))
    series = []
    for key, lines in frame.groupby(list(SERIES_KEY), sort=False, dropna=False):
        _, cpu, runtime, isa, benchmark, reference = (str(k) for k in key)
        readings = tuple(
            Reading(
                str(line.run_id),
                _number(line.measured_ratio),
                _number(line.measured_ratio_lower),
                _number(line.measured_ratio_upper),
                _pairs(line.pairs),
            )
            for line in lines.itertuples()
        )
        primary = bool(lines["primary"].fillna(False).any())
        series.append(
            FigureSeries(cpu, runtime, isa, benchmark, reference, primary, readings, tuple(change_points(readings)))
        )
    return sorted(series, key=lambda s: not s.primary)
