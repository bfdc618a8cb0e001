"""Google Benchmark's JSON report → CellOutcome (raw_format "gbench": lab/cpp).

The C++ lab times each cell with Google Benchmark: a fixed number of calls per repetition (`Iterations`, sized by
the lab from its warm speed to about the job's iteration time) and one repetition per measured iteration, every
repetition reported (`run_type` "iteration", beside the aggregates, which are ignored: the harness takes its own
statistics over the iterations, as for every lab). Each repetition's `real_time` is the wall time per call in its
`time_unit`. The cell's other files are the contract's (env.json, verification.json, cell.json); the engine's version
is the one the lab reports under `libraries` in env.json. C++ has no allocation counter here: allocations are not
reported (None), never guessed.
"""

from __future__ import annotations

import pathlib

from harness.model.errors import CellError
from harness.model.json_value import JsonMapping
from harness.model.outcomes import CellOutcome
from harness.normalize.cell_files import read_cell
from harness.normalize.common import json_number, json_objects
from harness.normalize.samples import cell_outcome

#: Google Benchmark's time units, in nanoseconds.
TIME_UNITS_NS = {"ns": 1.0, "us": 1e3, "ms": 1e6, "s": 1e9}


def iteration_times_ns(report: JsonMapping) -> list[float]:
    """Each measured repetition's wall time per call, in ns (aggregates and errored runs left out); a run that is not
    an object, or a real_time that is not a number, is a CellError naming it."""
    times: list[float] = []
    for run in json_objects(report.get("benchmarks") or [], "Google Benchmark's benchmarks"):
        if run.get("run_type", "iteration") != "iteration":
            continue
        if run.get("error_occurred"):
            raise CellError(
                f"Google Benchmark reported an error: {run.get('error_message', 'no message')}",
                "see the cell's log for the lab's output",
            )
        unit = run.get("time_unit", "ns")
        if not isinstance(unit, str) or unit not in TIME_UNITS_NS:
            raise CellError(f"Google Benchmark reported an unknown time unit '{unit}'", "report it: the lab sets ns")
        real_time = json_number(run.get("real_time"), "a Google Benchmark run's real_time")
        times.append(float(real_time) * TIME_UNITS_NS[unit])
    return times


def normalize_gbench_cell(cell_dir: pathlib.Path) -> CellOutcome:
    """Reads one finished cell folder of a lab whose raw_format is "gbench"."""
    files = read_cell(cell_dir)
    version = files.env.libraries.get("Google Benchmark", "")
    return cell_outcome(files, iteration_times_ns(files.raw_report()), f"Google Benchmark {version}".strip(), None)
