"""What every normalizer needs: reading a lab's JSON files with errors that say what to do (`read_json`, which is
harness/model/folder/lab_files.py's reader), a member of a tool's report narrowed to the JSON type it must have (one
of another type is a CellError naming it, never a TypeError further on), a cell's peak-RSS readings, and the statistics
of a list of per-operation times (iterations of one process, or whole processes)."""

from __future__ import annotations

import pathlib
import statistics
from typing import cast

from harness.model.errors import CellError
from harness.model.folder.field_types import shape_problem, shown, typed_shape
from harness.model.folder.lab_files import read_lab_json as read_json
from harness.model.json_value import JsonObject, JsonValue
from harness.model.outcomes import RSS_FILE, RssReadings, Statistics
from harness.model.stats.stats import mean_interval

#: What to do about a tool's report with a member of another type than its format's.
REPORT_HINT = "see the cell's log; the raw report is kept in the cell's folder"


def json_object(value: JsonValue, what: str) -> JsonObject:
    """`value` when it is a JSON object; CellError naming `what` (a member of a report) when it is of another type."""
    if isinstance(value, dict):
        return value
    raise CellError(f"{what} is {shown(value)}, not a JSON object", REPORT_HINT)


def json_array(value: JsonValue, what: str) -> list[JsonValue]:
    """`value` when it is a JSON array; CellError naming `what` when it is of another type."""
    if isinstance(value, list):
        return value
    raise CellError(f"{what} is {shown(value)}, not a JSON array", REPORT_HINT)


def json_objects(value: JsonValue, what: str) -> list[JsonObject]:
    """`value` when it is a JSON array of objects; CellError naming `what` (or its item) otherwise."""
    return [json_object(item, f"{what}[{index}]") for index, item in enumerate(json_array(value, what))]


def json_number(value: JsonValue, what: str) -> float:
    """`value` when it is a number (not a boolean), as written: an integer stays one, and a non-finite one (a tool's
    NaN for a statistic it has no data for) is left to the caller; CellError naming `what` when it is not a number."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return value
    raise CellError(f"{what} is {shown(value)}, not a number", REPORT_HINT)


def statistics_from_times(times_ns: list[float]) -> Statistics:
    """Statistics of per-operation times, with a Student-t 99% interval of their mean."""
    interval = mean_interval(times_ns)
    return Statistics(
        n=len(times_ns),
        mean_ns=statistics.fmean(times_ns),
        median_ns=statistics.median(times_ns),
        stddev_ns=statistics.stdev(times_ns) if len(times_ns) > 1 else None,
        ci99_lower_ns=interval.lower if len(times_ns) > 1 else None,
        ci99_upper_ns=interval.upper if len(times_ns) > 1 else None,
        min_ns=min(times_ns),
        max_ns=max(times_ns),
    )


def rss_readings(value: object, path: pathlib.Path) -> RssReadings:
    """An rss.json's value checked against the readings' declared shape (RssReadings); CellError naming the file when
    it does not fit."""
    problem = shape_problem(value, typed_shape(RssReadings))
    if problem:
        raise CellError(f"{path} is not peak-RSS readings: {problem}", "see the cell's log; run the cell again")
    return cast(RssReadings, value)


def peak_rss_bytes(cell_dir: pathlib.Path) -> int | None:
    """The median of the peak-RSS readings a cell's folder holds (RSS_FILE), or None when it holds none."""
    path = cell_dir / RSS_FILE
    if not path.exists():
        return None
    readings = rss_readings(read_json(path), path).get("peak_rss_bytes") or []
    return int(statistics.median(readings)) if readings else None
