"""environment.json's typed record (harness/model/folder/environment_record.py): the collector and the record agree, a
missing field or a value the report cannot read is refused naming it, and the record reads back what the runner
wrote."""

from __future__ import annotations

import dataclasses
import re

import pytest

from harness.host.cpu_hygiene import Finding
from harness.host.environment import collect_host_environment
from harness.host.host_cpus import CpuState
from harness.model.errors import SchemaError
from harness.model.folder.cpu_state import CpuStateRecord, FindingRecord, HygieneRecord
from harness.model.folder.environment_record import EnvironmentRecord, IsaLevelRecord, LabEnvironment
from harness.session.processes.probe import LevelProbe

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
    with pytest.raises(SchemaError, match=r"labs\['dotnet@10.0.12'\]: a LabEnvironment without isa_levels"):
        EnvironmentRecord.from_dict(data, "environment.json")


def test_a_labs_entry_that_is_not_an_object_is_a_schema_error_naming_the_field():
    data = environment().to_dict()
    data["labs"] = "dotnet@10.0.12"
    with pytest.raises(
        SchemaError, match=r"environment.json: EnvironmentRecord.labs = 'dotnet@10.0.12': not an object"
    ):
        EnvironmentRecord.from_dict(data, "environment.json")
    data["labs"] = {"dotnet@10.0.12": ["built"]}
    belongs = r"EnvironmentRecord.labs\['dotnet@10.0.12'\]: \['built'\] where a LabEnvironment object belongs"
    with pytest.raises(SchemaError, match=belongs):
        EnvironmentRecord.from_dict(data, "environment.json")


@pytest.mark.parametrize(
    "hygiene, says",
    [
        ({"cpus": [None]}, "its member 'cpus': an item is not an object"),
        ({"cpus": [{"cpu": "0"}]}, "its member 'cpus': item 0: its member 'cpu': not an integer"),
        ({"lab_cpus": "0-3"}, "its member 'lab_cpus': not a list"),
        ({"findings": [{"fix": None}]}, "its member 'findings': item 0: its member 'fix': not a string"),
        ([], "not an object"),
    ],
)
def test_a_cpu_hygiene_record_the_report_cannot_read_is_a_schema_error(hygiene, says):
    data = environment().to_dict()
    data["cpu_hygiene"] = {**data["cpu_hygiene"], **hygiene} if isinstance(hygiene, dict) else hygiene
    with pytest.raises(SchemaError, match=f"environment.json: EnvironmentRecord.cpu_hygiene = .*: {re.escape(says)}"):
        EnvironmentRecord.from_dict(data, "environment.json")


@pytest.mark.parametrize(
    "change, says",
    [
        (
            lambda lab: lab["isa_levels"]["native"].pop("state"),
            "LabEnvironment.isa_levels = .*: its member 'native': has no state",
        ),
        (
            lambda lab: lab["isa_levels"]["native"].update(switches=["x"]),
            "isa_levels = .*: its member 'native': its member 'switches': not an object",
        ),
        (
            lambda lab: lab["env"].update(libraries={"Newtonsoft.Json": 13}),
            "LabEnvironment.env = .*: its member 'libraries'",
        ),
        (lambda lab: lab.update(variants="all"), "LabEnvironment.variants = 'all': not a list"),
    ],
)
def test_a_lab_build_the_report_cannot_read_is_a_schema_error(change, says):
    data = environment().to_dict()
    lab = data["labs"]["dotnet@10.0.12"]
    lab["isa_levels"] = {"native": {**dict.fromkeys(IsaLevelRecord.__annotations__, ""), "switches": {}, "flags": {}}}
    EnvironmentRecord.from_dict(data)  # a complete probe reads
    change(lab)
    with pytest.raises(SchemaError, match=says):  # a pattern: the stored value is shown cut at 80 characters
        EnvironmentRecord.from_dict(data, "environment.json")


def test_the_stored_shapes_name_the_keys_their_writers_write():
    assert set(IsaLevelRecord.__annotations__) == {f.name for f in dataclasses.fields(LevelProbe)}
    assert set(CpuStateRecord.__annotations__) == {f.name for f in dataclasses.fields(CpuState)}
    assert set(FindingRecord.__annotations__) == {f.name for f in dataclasses.fields(Finding)}
    assert set(HygieneRecord.__annotations__) == set(collect_host_environment()["cpu_hygiene"])
