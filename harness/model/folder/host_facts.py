"""A host's facts as a run folder keeps them (hosts.json `facts`, environment.json `host`): the record and its check."""

from __future__ import annotations

from typing import Any, TypedDict

from harness.model.errors import SchemaError
from harness.model.folder.field_types import RECORD_HINT, shown, type_problem


class HostFactsRecord(TypedDict, total=False):
    """A host's facts as harness/containers/host_probe.py HostFacts writes them (hosts.json `facts`, environment.json
    `host`); the report reads these (tests/harness/model/test_run_records.py holds the keys to it)."""

    name: str
    context: str | None
    reachable: bool
    reason: str
    engine_version: str | None
    arch: str | None
    kernel: str | None
    os: str | None
    cpus: int | None
    memory_bytes: int | None
    cpu_model: str | None
    cpu_vendor: str | None
    cpu_family: int | None
    cpu_model_number: int | None
    cpu_flags: list[str]
    isolated_cpus: str | None
    isa_levels: list[str]
    details: dict[str, Any]


def check_host_facts(facts: object, where: str) -> None:
    """A host's facts that fit HostFactsRecord (keys a run recorded before one existed may be missing); SchemaError
    naming the key otherwise."""
    problem = type_problem(facts, HostFactsRecord)
    if problem:
        raise SchemaError(f"{where} = {shown(facts)}: {problem}", RECORD_HINT)
