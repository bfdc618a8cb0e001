"""The run folder's side records (harness/model/folder/run_records.py): every field's value checked at read, not only
the numbers, and the shapes of the dictionaries they keep held to the classes that write them."""

from __future__ import annotations

import dataclasses
import re
import typing

import pytest

from harness.config.experiment.profiles import BudgetSpec, Stopping
from harness.containers.host_probe import HostFacts
from harness.model.cells import JobSettings
from harness.model.errors import SchemaError
from harness.model.folder.host_facts import HostFactsRecord
from harness.model.folder.run_records import BudgetRecord, HostRecord, RunRecord, StoppingRecord, TimelineRecord

RUN = RunRecord(
    run_id="r", profile="default", design="paired", stopping={"target_rel_ci": 0.02}, job=JobSettings(), cells=[]
)


def test_the_stored_shapes_are_the_writers_fields_and_types():
    assert typing.get_type_hints(Stopping) == typing.get_type_hints(StoppingRecord)
    assert typing.get_type_hints(BudgetSpec) == typing.get_type_hints(BudgetRecord)
    assert set(HostFactsRecord.__annotations__) == {
        f.name for f in dataclasses.fields(HostFacts)
    }  # tuples there, lists in JSON


@pytest.mark.parametrize(
    "change, says",
    [
        (
            {"stopping": {"target_rel_ci": []}},
            "RunRecord.stopping = {'target_rel_ci': []}: its member 'target_rel_ci': not a number",
        ),
        (
            {"job": {"burst_rounds": "15"}},
            "RunRecord.job = {'burst_rounds': '15'}: its member 'burst_rounds': not an integer",
        ),
        ({"job": {"burst_rounds": -1}}, "RunRecord.job = {'burst_rounds': -1}: JobSettings.burst_rounds = -1"),
        ({"job": {"burst_rounds": 2, "speed": 1}}, "RunRecord.job = {'burst_rounds': 2, 'speed': 1}: JobSettings"),
        ({"budget": {"minutes": 57}}, "RunRecord.budget = {'minutes': 57}: has no floor_rounds"),
        (
            {"budget": {"minutes": "57", "floor_rounds": 5}},
            "RunRecord.budget = {'minutes': '57', 'floor_rounds': 5}: its member 'minutes': not a number",
        ),
        ({"cells": "all"}, "RunRecord.cells = 'all': not a list"),
        ({"profile": None}, "RunRecord.profile = None: not a string"),
    ],
)
def test_a_run_record_the_report_cannot_read_is_a_schema_error_naming_the_field(change, says):
    with pytest.raises(SchemaError, match=f"run.json: {re.escape(says)}"):
        RunRecord.from_dict({**RUN.to_dict(), **change}, "run.json")


@pytest.mark.parametrize(
    "facts, says",
    [
        ({"cpu_flags": "avx2"}, "its member 'cpu_flags': not a list"),
        ({"reason": None}, "its member 'reason': not a string"),
        ({"cpu_family": 6.5}, "its member 'cpu_family': not an integer"),
        ("x", "not an object"),
    ],
)
def test_a_host_whose_facts_the_page_cannot_read_is_a_schema_error(facts, says):
    with pytest.raises(SchemaError, match=re.escape(f"hosts.json: HostRecord.facts = {facts!r}: {says}")):
        HostRecord.from_dict({"host": "a", "state": "done", "facts": facts}, "hosts.json")


@pytest.mark.parametrize("data", [[1], "line", None, 7])
def test_a_json_value_that_is_not_an_object_is_a_schema_error(data):
    with pytest.raises(SchemaError, match="where a TimelineRecord object belongs"):
        TimelineRecord.from_dict(data, "timeline.jsonl:3")  # type: ignore[arg-type]


def test_what_the_writers_write_reads_back():
    assert RunRecord.from_dict(RUN.to_dict()) == RUN
    host = HostRecord("a", "done", dataclasses.asdict(HostFacts("a", None, True, cpu_flags=("avx2",))))
    assert HostRecord.from_dict(host.to_dict()) == host
