"""One experiment of a draft folder through the real labs on this machine (the smoke profile's short job, native level,
the host backend), as the e2e tests of run settings and single shots use it."""

from __future__ import annotations

import pathlib

from harness.backends.host import HostBackend
from harness.config.isa import load_isa_table
from harness.planning.run_plan import RunOptions
from harness.session.runner import RunSummary, execute_run
from tests.e2e.run_rows import read_rows, undisturbed


def run_real(
    tmp_path: pathlib.Path,
    experiments: pathlib.Path,
    experiment: str,
    benchmarks: tuple[str, ...],
    runtimes: tuple[str, ...],
    datasets_dir: pathlib.Path | None = None,
) -> tuple[RunSummary, list[dict]]:
    """The run's summary and its rows the machine did not disturb (tests/e2e/run_rows.py)."""
    options = RunOptions(
        profile="smoke",
        experiments=(experiment,),
        benchmarks=benchmarks,
        isa_levels=("native",),
        runtimes=runtimes,
        experiments_dir=experiments,
        results_dir=tmp_path / "results",
        pin_harness=False,
        calibrate=False,
        **({"datasets_dir": datasets_dir} if datasets_dir else {}),
    )
    summary = execute_run(options, HostBackend(load_isa_table().all_switch_names()))
    return summary, undisturbed(read_rows(summary.directory))
