"""A host's facts as a run folder keeps them (hosts.json `facts`, environment.json `host`), checked on read by the
record that holds them (run_records._Record.from_dict)."""

from __future__ import annotations

from typing import TypedDict

from harness.model.json_value import JsonObject


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
    details: JsonObject
