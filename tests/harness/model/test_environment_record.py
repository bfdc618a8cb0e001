"""environment.json's typed record (harness/model/environment_record.py): the collector and the record agree, a
missing field is refused, and the record reads back what the runner wrote."""

from __future__ import annotations

import dataclasses

import pytest

from harness.host.environment import collect_host_environment
from harness.model.environment_record import EnvironmentRecord, LabEnvironment
from harness.model.errors import SchemaError

#: What the runner adds to the host's environment (harness/session/runner.py _write_environment).
RUNNER_KEYS = {
    "backend",
    "lab_cpuset",
    "harness_cpus",
    "container_engine",
    "labs",
    "host",
    "warm_cpus",
    "design_note",
}  # host: a run over hosts


def environment(**overrides) -> EnvironmentRecord:
    """A complete record for tests of its readers: this host's environment, one .NET lab build, then `overrides`."""
    host = collect_host_environment({"cpus": [], "findings": []})
    lab = {
        "env": {
            "runtime": "10.0.12",
            "runtime_description": ".NET 10.0.12",
            "libraries": {"Newtonsoft.Json": "13.0.4"},
        },
        "variants": [],
        "emulated": False,
        "runtime": "10.0.12",
        "expected_runtime_version": "10.0.12",
        "lab_environment": {},
        "where": {},
        "isa_levels": {},
    }
    data = {**host, "backend": "host", "lab_cpuset": "1", "harness_cpus": [0], "labs": {"dotnet@10.0.12": lab}}
    return dataclasses.replace(EnvironmentRecord.from_dict(data), **overrides)


def test_every_key_the_collector_and_the_runner_write_is_a_field_of_the_record():
    fields = {f.name for f in dataclasses.fields(EnvironmentRecord)}
    assert set(collect_host_environment({"cpus": [], "findings": []})) | RUNNER_KEYS == fields


def test_the_record_round_trips_with_typed_lab_builds():
    record = environment()
    again = EnvironmentRecord.from_dict(record.to_dict())
    assert again == record
    lab = again.labs["dotnet@10.0.12"]
    assert isinstance(lab, LabEnvironment) and lab.runtime_description == ".NET 10.0.12"
    assert lab.libraries == {"Newtonsoft.Json": "13.0.4"} and again.runtime_descriptions == [".NET 10.0.12"]


def test_a_missing_field_is_a_schema_error_naming_the_file_and_the_lab():
    data = environment().to_dict()
    del data["kernel"]
    with pytest.raises(SchemaError, match="environment.json: a EnvironmentRecord without kernel"):
        EnvironmentRecord.from_dict(data, "environment.json")
    data = environment().to_dict()
    del data["labs"]["dotnet@10.0.12"]["isa_levels"]
    with pytest.raises(SchemaError, match="lab dotnet@10.0.12: a LabEnvironment without isa_levels"):
        EnvironmentRecord.from_dict(data, "environment.json")
