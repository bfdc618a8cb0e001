"""Typed records of the run folder's side files, one class per file (run_folder.py names them), each with its schema
version: what was asked for (run.json), how each group stopped (groups.jsonl), where the session spent its time
(timeline.jsonl), the calibration workloads (calibration.jsonl), the conformance outcomes (conformance.jsonl) and,
for a run over several hosts, each host's facts and how its run ended (hosts.json, read and written by
hosts_file.py).
results.jsonl has its own record (records.py, ResultRow), environment.json its own (environment_record.py). The
harness writes these with `to_dict()`, the analysis reads them with `from_dict()`: a missing field is a SchemaError
naming the file, never a silent '?'.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Required, TypedDict, TypeVar

from harness.model.cells import JobSettings
from harness.model.errors import SchemaError
from harness.model.folder.field_types import (
    RECORD_HINT,
    field_hints,
    required_keys,
    shape_problem,
    shown,
    type_problem,
    typed_shape,
)
from harness.model.folder.host_facts import HostFactsRecord, check_host_facts
from harness.model.folder.run_folder import READABLE_SCHEMA_VERSIONS, SCHEMA_VERSION
from harness.model.groups import GroupKey
from harness.model.stats.pairing import BURST_DESIGNS

Record = TypeVar("Record", bound="_Record")


class _Record:
    """to_dict / from_dict for a frozen dataclass with a schema_version field."""

    def to_dict(self) -> dict[str, Any]:
        """The record as written (one JSON object)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls: type[Record], data: dict[str, Any], where: str = "") -> Record:
        """The record from its JSON object; extra keys (a newer harness's) are ignored, missing ones refused."""
        where = where or cls.__name__
        if not isinstance(data, dict):
            raise SchemaError(f"{where}: {shown(data)} where a {cls.__name__} object belongs", RECORD_HINT)
        version = data.get("schema_version", SCHEMA_VERSION)
        if version not in READABLE_SCHEMA_VERSIONS:
            raise SchemaError(
                f"{where} has schema_version {version!r}; this harness reads "
                f"{', '.join(map(str, READABLE_SCHEMA_VERSIONS))}",
                "re-run the experiment with this version (just run-all), or check out the commit that wrote it",
            )
        data = cls._typed_fields(data, where)
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        missing = [
            f.name
            for f in fields
            if f.name not in data and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        if missing:
            raise SchemaError(f"{where}: a {cls.__name__} without {', '.join(missing)}", RECORD_HINT)
        names = {f.name for f in fields}
        hints = field_hints(cls)
        for name in sorted(names & set(data)):
            # every field, texts and tables too: a run folder is untrusted, and each value reaches a report
            why = type_problem(data[name], hints[name])
            if why:
                raise SchemaError(f"{where}: {cls.__name__}.{name} = {shown(data[name])}: {why}", RECORD_HINT)
        return cls(**{k: v for k, v in data.items() if k in names})

    @classmethod
    def _typed_fields(cls, data: dict[str, Any], where: str) -> dict[str, Any]:
        """The JSON object with nested records made typed (a record with nested ones overrides this)."""
        return data


class StoppingRecord(TypedDict, total=False):
    """run.json's `stopping` as the run writes it (harness/config/experiment/profiles.py Stopping, which this layer
    cannot import; tests/harness/model/test_run_records.py holds the two alike). The report's precision and method
    sections do arithmetic on these; `job` is JobSettings' own (harness/model/cells.py)."""

    min_rounds: int
    max_rounds: int
    target_rel_ci: float | None
    group_time_cap_s: float | None
    cell_time_cap_s: float | None
    until_decided: bool


class BudgetRecord(TypedDict, total=False):
    """run.json's `budget` (harness/config/experiment/profiles.py BudgetSpec)."""

    minutes: Required[float]
    floor_rounds: Required[int]
    priority: str
    probe_groups: int
    probe_rounds: int
    until_decided: bool


@dataclass(frozen=True)
class RunRecord(_Record):
    """run.json: what a run was asked for (a resumed session must ask for the same selection) and its budget."""

    run_id: str
    profile: str
    design: str
    stopping: StoppingRecord
    job: dict[str, Any]
    cells: list[str]
    budget: BudgetRecord | None = None
    schema_version: int = SCHEMA_VERSION

    SELECTION = ("profile", "design", "stopping", "job", "cells")

    @classmethod
    def _typed_fields(cls, data: dict[str, Any], where: str) -> dict[str, Any]:
        for name, fields in (("stopping", StoppingRecord), ("job", JobSettings), ("budget", BudgetRecord)):
            value = data.get(name)
            problem = (
                shape_problem(value, typed_shape(fields), required_keys(fields)) if isinstance(value, dict) else ""
            )
            if problem:
                raise SchemaError(f"{where}: RunRecord.{name}: {problem}", RECORD_HINT)
        return data

    def selection(self) -> dict[str, Any]:
        """The fields a resumed session must match."""
        return {name: getattr(self, name) for name in self.SELECTION}

    #: The job keys by which a run sets its own iterations; a run that sets none left them to BenchmarkDotNet's
    #: automatic job, as the write-ups ran (the `publisher-method` profile).
    OWN_ITERATION_KEYS = ("prewarm_ms", "warmup_count", "iteration_count", "iteration_time_ms", "invocation_count")

    @property
    def automatic_job(self) -> bool:
        """Whether the run measured the write-ups' way: fresh processes (not the paired design) whose job left every
        iteration setting to BenchmarkDotNet."""
        return self.design not in BURST_DESIGNS and not any(self.job.get(key) for key in self.OWN_ITERATION_KEYS)

    @property
    def target_rel_ci(self) -> float | None:
        """The stopping rule's precision target (None: fixed rounds)."""
        return self.stopping.get("target_rel_ci")


@dataclass(frozen=True)
class GroupRecord(_Record):
    """groups.jsonl: how one group stopped in one session."""

    isa_level: str
    experiment: str
    group: str
    runtime: str
    rounds: int
    elapsed_s: float
    worst_rel_ci: float | None
    state: str
    schema_version: int = SCHEMA_VERSION

    @property
    def key(self) -> GroupKey:
        """(ISA level, experiment, group, runtime)."""
        return GroupKey(self.isa_level, self.experiment, self.group, self.runtime)


#: Timeline phases that happen once per run: the session's preparation, and after it `just run-all`'s conformance
#: pass and report (each records its own time, so a later plan can learn it: harness/planning/history.py).
PREPARE, CONFORMANCE, REPORT = "prepare", "conformance", "report"
#: The timeline phase of a whole session, from its plan to its last row.
SESSION = "session"


@dataclass(frozen=True)
class TimelineRecord(_Record):
    """timeline.jsonl: one phase of a session (prepare, calibration, session, conformance …) and its wall time."""

    phase: str
    what: str
    seconds: float
    ended_at: str
    schema_version: int = SCHEMA_VERSION


@dataclass(frozen=True)
class CalibrationRecord(_Record):
    """calibration.jsonl: one timing of a calibration workload on one CPU set."""

    label: str
    cpuset: str
    workload: str
    at: str
    median_ms: float
    cv: float
    repetitions: int
    schema_version: int = SCHEMA_VERSION


@dataclass(frozen=True)
class ConformanceRecord(_Record):
    """conformance.jsonl: one parser's outcome on one JSONTestSuite file."""

    lab: str
    parser: str
    file: str
    expectation: str
    outcome: str
    verdict: str
    runtime: str | None = None
    library: str | None = None
    library_version: str | None = None
    description: str | None = None
    detail: str = ""
    ms: float | None = None
    schema_version: int = SCHEMA_VERSION


@dataclass(frozen=True)
class HostRecord(_Record):
    """hosts.json: one host of a run over several hosts, what its engine said about it (`facts`: harness/containers/
    host_probe.py HostFacts) and how its run ended (`state`: harness/session/hosts_run.py HostOutcome)."""

    host: str
    state: str
    facts: HostFactsRecord
    exit_code: int | None = None
    last_line: str = ""
    lost: str = ""
    seconds: float = 0.0
    budget_min: float | None = None
    platform: str | None = None
    images_moved: list[list[Any]] = dataclasses.field(default_factory=list)  # [image, bytes, seconds]
    schema_version: int = SCHEMA_VERSION

    @classmethod
    def _typed_fields(cls, data: dict[str, Any], where: str) -> dict[str, Any]:
        check_host_facts(data.get("facts", {}), f"{where}: HostRecord.facts")
        return data


@dataclass(frozen=True)
class NoiseProbeRecord(_Record):
    """noise_probe.json: what the noise probe (harness/session/rounds/noise_probe.py) measured at the start of a run and
    what it forecast the budget would reach: the run's median ratio 99% CI and its inconclusive claims."""

    groups: list[str]  # the probed groups, as '<experiment>/<group>@<ISA level> on <runtime>'
    rounds: int  # processes per probed group
    seconds: float  # wall time of the probe's processes
    ratios: int  # probed ratios with a spread
    spread_median: float | None  # their corrected median spread of per-process log ratios
    steering_rounds: int  # processes forecast for a group holding a published claim
    other_rounds: int  # and for one without
    forecast_median_rel_ci: float | None
    probed_claims: int
    inconclusive_probed: int
    claims: int  # the claims the budget steers by
    forecast_inconclusive: float | None  # the probed claims' inconclusive share, scaled to `claims`
    budget_min: float
    target_rel_ci: float | None
    minutes_for_target: float | None  # the budget at which the median ratio would reach the target (None: never)
    schema_version: int = SCHEMA_VERSION

    @classmethod
    def _typed_fields(cls, data: dict[str, Any], where: str) -> dict[str, Any]:
        groups = data.get("groups")
        if groups is not None and not (
            isinstance(groups, list) and len(groups) <= 1000 and all(isinstance(g, str) for g in groups)
        ):
            raise SchemaError(
                f"{where}: NoiseProbeRecord.groups = {shown(groups)}: not a list of group names", RECORD_HINT
            )
        return data
