"""The report's title block says where a pipelined run warmed its processes, and why a run played another design
than its profile's (harness/planning/warm_cpus.py); the note, read from the run folder, reaches the page escaped."""

import pandas as pd
import pytest

from analysis.render.untrusted import neutral_markdown
from analysis.sections.header import header_markdown
from harness.model.cells import JobSettings
from harness.model.errors import SchemaError
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.run_records import RunRecord
from tests.harness.model.test_environment_record import environment

RUN = RunRecord(run_id="r", profile="default", design="paired", stopping={}, job=JobSettings(), cells=[])


def test_the_header_names_the_warm_cpu_and_the_design_note_and_nothing_for_a_plain_run():
    plain = header_markdown(environment(), RUN, pd.DataFrame())
    assert "pinned to CPU 1 (host backend). Lab commit" in plain and "warmed" not in plain and "Design" not in plain
    warm = header_markdown(environment(warm_cpus=(0,)), RUN, pd.DataFrame())
    assert "pinned to CPU 1 (host backend), started, verified and warmed on CPU 0 before it was handed over." in warm
    note = "the profile's paired-pipelined design runs as paired: this run has no CPU beside the lab's 0 <script>"
    fallen = neutral_markdown(header_markdown(environment(design_note=note), RUN, pd.DataFrame()))
    assert "**Design**: the profile's paired-pipelined design runs as paired" in fallen
    assert "<script>" not in fallen and "&lt;script>" in fallen


def test_a_broken_warm_cpu_list_or_design_note_is_refused_when_read():
    good = environment().to_dict()
    for key, value in (
        ("warm_cpus", "0"),
        ("warm_cpus", [True]),
        ("warm_cpus", [-1]),
        ("warm_cpus", [1e400]),
        ("design_note", {"a": 1}),
        ("design_note", "x" * 5000),
    ):
        with pytest.raises(SchemaError, match=key):
            EnvironmentRecord.from_dict({**good, key: value}, "environment.json")
    assert EnvironmentRecord.from_dict({**good, "warm_cpus": [0], "design_note": "n"}).warm_cpus == [0]
