"""A run's line in the store's `runs` table and its host's in `hosts`, from the run's records as load_run read them
(run.json, environment.json, timeline.jsonl). A host is keyed by a digest of the facts that make it the same machine
for a measurement (CPU model and numbers, logical CPUs, hypervisor, architecture, kernel, OS, memory): two runs on one
machine share its line, and a kernel update makes it another host, as it can move a figure."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import math
from dataclasses import dataclass

import pandas as pd

from analysis.compute.load import RunData
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.run_records import SESSION

#: A value SQLite stores as it is.
SqlValue = str | int | float | None
#: Hex digits of a host's digest kept as its id.
HOST_ID_DIGITS = 16


@dataclass(frozen=True)
class HostEntry:
    """One line of `hosts`: a machine as environment.json describes it."""

    host_id: str
    cpu_model: str | None
    cpu_vendor: str | None
    cpu_family: int | None
    cpu_model_number: int | None
    logical_cpus: int
    hypervisor: bool
    machine: str
    kernel: str
    os: str | None
    memory_bytes: int

    def values(self) -> tuple[SqlValue, ...]:
        """The line's values in column order."""
        return dataclasses.astuple(self)


@dataclass(frozen=True)
class RunEntry:
    """One line of `runs`: what a run was asked for, when and where it ran, on which commit, and what it holds."""

    run_id: str  # the run folder's name
    digest: str  # of the files the run's lines come from (analysis/store/folder_digest.py)
    profile: str
    design: str
    started_at: str | None  # environment.json's capture, at the start of the run
    finished_at: str | None  # the end of its last session (timeline.jsonl)
    git_commit: str | None
    git_dirty: bool | None
    host_id: str | None  # None: a run folder without environment.json
    backend: str | None
    budget_minutes: float | None
    planned_cells: int
    cells: int
    row_count: int
    verdict_count: int
    experiments_note: str  # where the experiments it was judged against came from ('' when from its own copy)

    def values(self) -> tuple[SqlValue, ...]:
        """The line's values in column order."""
        return dataclasses.astuple(self)


#: The columns of `hosts` and `runs`, in the order `values()` gives them.
HOST_COLUMNS = tuple(f.name for f in dataclasses.fields(HostEntry))
RUN_COLUMNS = tuple(f.name for f in dataclasses.fields(RunEntry))


def host_entry(environment: EnvironmentRecord) -> HostEntry:
    """The host a run measured on, with its id: the digest of its facts."""
    facts = {
        "cpu_model": environment.cpu_model,
        "cpu_vendor": environment.cpu_vendor,
        "cpu_family": environment.cpu_family,
        "cpu_model_number": environment.cpu_model_number,
        "logical_cpus": environment.logical_cpus,
        "hypervisor": environment.hypervisor,
        "machine": environment.machine,
        "kernel": environment.kernel,
        "os": environment.os,
        "memory_bytes": environment.memory_bytes,
    }
    digest = hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()[:HOST_ID_DIGITS]
    return HostEntry(
        host_id=digest,
        cpu_model=environment.cpu_model,
        cpu_vendor=environment.cpu_vendor,
        cpu_family=environment.cpu_family,
        cpu_model_number=environment.cpu_model_number,
        logical_cpus=environment.logical_cpus,
        hypervisor=environment.hypervisor,
        machine=environment.machine,
        kernel=environment.kernel,
        os=environment.os,
        memory_bytes=environment.memory_bytes,
    )


def run_entry(data: RunData, digest: str, verdicts: int, experiments_note: str) -> RunEntry:
    """The run's line: `data` as load_run read it, `digest` its files', `verdicts` how many lines of `verdicts` it
    has."""
    environment, budget = data.environment, data.run.budget
    sessions = [t.ended_at for t in data.timeline if t.phase == SESSION]
    rows = data.rows
    return RunEntry(
        run_id=data.directory.name,
        digest=digest,
        profile=data.run.profile,
        design=data.run.design,
        started_at=environment.captured_at if environment else _first_start(data),
        finished_at=max(sessions) if sessions else None,
        git_commit=environment.git_commit if environment else None,
        git_dirty=environment.git_dirty if environment else None,
        host_id=host_entry(environment).host_id if environment else None,
        backend=environment.backend if environment else None,
        budget_minutes=budget["minutes"] if budget else None,
        planned_cells=len(data.run.cells),
        cells=int(rows["cell_id"].nunique()) if not rows.empty else 0,
        row_count=len(rows),
        verdict_count=verdicts,
        experiments_note=experiments_note,
    )


def _first_start(data: RunData) -> str | None:
    """The earliest start of a process, for a run folder without environment.json."""
    starts = [s for s in data.rows.get("started_at", []) if isinstance(s, str)]
    return min(starts) if starts else None


def sql_value(value: object) -> SqlValue:
    """A frame's cell as SQLite stores it: missing (None, NaN) as NULL, a NumPy scalar as its Python value, a boolean
    as 0 or 1; anything else (a list, an object) as its text."""
    item = getattr(value, "item", None)  # a NumPy scalar
    if callable(item) and not isinstance(value, (str, bytes)):
        value = item()
    if value is None or (isinstance(value, float) and math.isnan(value)) or value is pd.NA:
        return None
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, str):
        return str(value)  # a status enum as its text
    if isinstance(value, (int, float)):
        return value
    return str(value)
