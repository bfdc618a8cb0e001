"""What one run (or one resumed session of it) fixes before its first process, shared by the session's parts: the
rows it writes (cell_rows.py), the processes of a slot (slot_processes.py), the loop (scheduler.py) and its costs
(round_costs.py). Built once by the runner with named fields; no part changes it."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from harness.backends.base import Backend
from harness.config.experiment.profiles import Stopping
from harness.config.isa import IsaLevel
from harness.config.lab.labs import LabSpec
from harness.model.cells import ColdSettings, JobSettings
from harness.model.folder.store import RunStore
from harness.planning.designs import Design
from harness.planning.run_plan import Plan, RunOptions
from harness.session.processes.datasets_view import datasets_for_run
from harness.session.processes.probe import LabProbe


@dataclass(frozen=True)
class SessionSetup:
    store: RunStore
    backend: Backend
    design: Design
    stopping: Stopping
    job: JobSettings
    probes: dict[str, LabProbe]
    levels: dict[str, IsaLevel]
    labs: dict[str, LabSpec]
    lab_cpus: tuple[str, ...]
    profile_name: str
    datasets_dir: pathlib.Path
    cell_timeout_s: float
    cold: ColdSettings = ColdSettings()
    peak_rss_runs: int = 0  # steady cells of one process: fresh `once --report-rss` processes after each
    warm_cpuset: str | None = None  # the paired-pipelined design's warm CPU (the harness's)


def setup_for_run(
    plan: Plan,
    options: RunOptions,
    store: RunStore,
    backend: Backend,
    probes: dict[str, LabProbe],
    lab_cpus: tuple[str, ...],
    warm_cpuset: str | None,
) -> SessionSetup:
    """What the session's parts share, fixed for this session."""
    return SessionSetup(
        store=store,
        backend=backend,
        design=plan.design,
        stopping=plan.stopping,
        job=plan.job,
        probes=probes,
        levels=plan.levels,
        labs=plan.labs,
        lab_cpus=lab_cpus,
        profile_name=plan.profile_name,
        datasets_dir=datasets_for_run(options.datasets_dir.resolve(), plan.cells, store.directory),
        cell_timeout_s=options.cell_timeout_s,
        cold=plan.cold,
        peak_rss_runs=plan.peak_rss_runs,
        warm_cpuset=warm_cpuset,
    )
