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
import types
import typing
from dataclasses import dataclass
from typing import Mapping, Required, TypedDict, TypeVar

from harness.model.cells import JobSettings
from harness.model.errors import SchemaError
from harness.model.folder.field_types import RECORD_HINT, field_hints, shape_problem, shown, type_problem, typed_shape
from harness.model.folder.host_facts import HostFactsRecord
from harness.model.folder.run_folder import READABLE_SCHEMA_VERSIONS, SCHEMA_VERSION
from harness.model.groups import GroupKey
from harness.model.json_value import JsonObject
from harness.model.stats.pairing import BURST_DESIGNS

Record = TypeVar("Record", bound="_Record")
_NONE = type(None)


class _Record:
    """to_dict / from_dict for a frozen dataclass with a schema_version field."""

    def to_dict(self) -> JsonObject:
        """The record as written (one JSON object)."""
        return dataclasses.asdict(self)  # type: ignore[call-overload]

    @classmethod
    def from_dict(cls: type[Record], data: object, where: str = "") -> Record:
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
        fields = dataclasses.fields(cls)  # type: ignore[arg-type]
        missing = [
            f.name
            for f in fields
            if f.name not in data and f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        ]
        if missing:
            raise SchemaError(f"{where}: a {cls.__name__} without {', '.join(missing)}", RECORD_HINT)
        hints = field_hints(cls)
        # every field, texts and tables too: a run folder is untrusted, and each value reaches a report
        values = {
            name: _field_value(data[name], hints[name], f"{where}: {cls.__name__}.{name}")
            for name in sorted({f.name for f in fields} & set(data))
        }
        cls._check_bounds(values, where)
        return cls(**values)

    @classmethod
    def _check_bounds(cls, data: Mapping[str, object], where: str) -> None:
        """Limits a field's type does not say (a list's length, a text's): a record with such fields overrides this."""


def _field_value(value: object, hint: object, where: str) -> object:
    """A stored field's value checked against its annotation (field_types.type_problem: TypedDicts and lists of them
    too) and made typed: a nested record (a _Record) read by its from_dict, an object of them each, a nested frozen
    dataclass built from its object. `where` names the field: 'run.json: RunRecord.job'."""
    why = type_problem(value, hint)
    if why:
        raise SchemaError(f"{where} = {shown(value)}: {why}", RECORD_HINT)
    if value is None:
        return value
    hint = _not_none(hint)
    if typing.get_origin(hint) is dict and isinstance(value, dict):
        item = _not_none(typing.get_args(hint)[1])
        if isinstance(item, type) and issubclass(item, _Record):
            return {key: item.from_dict(entry, f"{where}[{shown(key)}]") for key, entry in value.items()}
    if isinstance(hint, type) and issubclass(hint, _Record):
        return hint.from_dict(value, where)
    if isinstance(hint, type) and dataclasses.is_dataclass(hint):
        problem = shape_problem(value, typed_shape(hint))
        if not problem and isinstance(value, dict):
            try:
                return hint(**value)  # its own checks (a setting's range) too
            except (TypeError, ValueError) as e:
                problem = str(e)
        raise SchemaError(f"{where} = {shown(value)}: {problem}", RECORD_HINT)
    return value


def _not_none(hint: object) -> object:
    """The annotation without its None: `X | None` → X."""
    if typing.get_origin(hint) in (typing.Union, types.UnionType):
        arms = [arm for arm in typing.get_args(hint) if arm is not _NONE]
        return arms[0] if len(arms) == 1 else hint
    return hint


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
    job: JobSettings
    cells: list[str]
    budget: BudgetRecord | None = None
    schema_version: int = SCHEMA_VERSION

    SELECTION = ("profile", "design", "stopping", "job", "cells")

    def selection(self) -> JsonObject:
        """The fields a resumed session must match, as written."""
        written = self.to_dict()
        return {name: written[name] for name in self.SELECTION}

    #: The job keys by which a run sets its own iterations; a run that sets none left them to BenchmarkDotNet's
    #: automatic job, as the write-ups ran (the `publisher-method` profile).
    OWN_ITERATION_KEYS = ("prewarm_ms", "warmup_count", "iteration_count", "iteration_time_ms", "invocation_count")

    @property
    def automatic_job(self) -> bool:
        """Whether the run measured the write-ups' way: fresh processes (not the paired design) whose job left every
        iteration setting to BenchmarkDotNet."""
        return self.design not in BURST_DESIGNS and not any(getattr(self.job, key) for key in self.OWN_ITERATION_KEYS)

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
    images_moved: list[list[str | float]] = dataclasses.field(default_factory=list)  # [image, bytes, seconds]
    schema_version: int = SCHEMA_VERSION


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
    def _check_bounds(cls, data: Mapping[str, object], where: str) -> None:
        groups = data.get("groups")
        if isinstance(groups, list) and len(groups) > 1000:
            raise SchemaError(
                f"{where}: NoiseProbeRecord.groups = {shown(groups)}: not a list of group names", RECORD_HINT
            )
