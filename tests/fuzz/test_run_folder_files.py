"""Property-based fuzzing (hypothesis) of every kind of file a run folder holds, each through its one reader:
environment.json (RunStore.environment), hosts.json (read_hosts_file), a cell's cell.json, env.json and
verification.json (read_cell, by the normalizer), a process's process.json (read_process), and run.json and the side
logs (their records). A random JSON value put at a random place of a file the lab wrote (or a key taken out) gives a
result its readers use without an error, or a HarnessError naming the file; never another exception. The rows of
results.jsonl are fuzzed in test_untrusted_files.py."""

from __future__ import annotations

import copy
import dataclasses
import json
import pathlib
import shutil
import tempfile
from collections.abc import Iterator
from typing import Any

import pandas as pd
import pytest
from hypothesis import given
from hypothesis import strategies as st

from analysis.charts.style import caption_for
from analysis.compute.load import load_run
from analysis.compute.verdicts.setup_factors import run_setup_table
from analysis.render.hosts_markdown import hosts_markdown
from analysis.render.hosts_report import CLAIM_KEY, hosts_table, nearest_host_verdicts
from analysis.render.report import compose_report
from analysis.render.untrusted import neutral_markdown
from analysis.render.writer import report_inputs, run_labs_dir
from harness.backends.fake import FakeBackend
from harness.config.experiment.experiments import load_experiments
from harness.model.cells import JobSettings
from harness.model.errors import HarnessError
from harness.model.folder.field_types import field_hints, type_problem
from harness.model.folder.hosts_file import read_hosts_file
from harness.model.folder.lab_files import read_process
from harness.model.folder.records import ResultRow
from harness.model.folder.run_records import GroupRecord, RunRecord, TimelineRecord
from harness.model.folder.store import RunStore
from harness.normalize import NORMALIZERS
from harness.normalize.bdn import normalize_bdn_cell
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.analysis.test_damaged_run_folder import PROBE
from tests.conftest import FIXTURES
from tests.fuzz.test_untrusted_files import FUZZ, JSON_VALUES
from tests.harness.normalize.test_normalize_samples import _paired


def _paths(value: Any, prefix: tuple = ()) -> Iterator[tuple]:
    """The places in a JSON value: the path of keys and indices to it, the whole value first; a list's first two items
    only (a lab's variant list has hundreds alike, which would draw most of the places)."""
    yield prefix
    items = value.items() if isinstance(value, dict) else enumerate(value[:2]) if isinstance(value, list) else ()
    for key, inner in items:
        yield from _paths(inner, (*prefix, key))


def _mutated(draw: st.DrawFn, document: Any, most: int = 2) -> Any:
    """The document with 1..`most` places replaced by a random JSON value, or (for an object's member) taken out."""
    document = copy.deepcopy(document)
    for _ in range(draw(st.integers(1, most))):
        path = draw(st.sampled_from(list(_paths(document))))
        value, remove = draw(JSON_VALUES), draw(st.integers(0, 5)) == 0
        if not path:
            document = value
            continue
        parent = document
        for key in path[:-1]:
            parent = parent[key]
        if remove and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = value
    return document


def _write(path: pathlib.Path, document: Any) -> None:
    path.write_text(json.dumps(document, allow_nan=True))


def _fits_a_row(fields: dict[str, Any]) -> None:
    """Every field a normalizer gives that is a result row's fits the row's type (it is written to results.jsonl)."""
    hints = field_hints(ResultRow)
    for name, value in fields.items():
        assert name not in hints or not type_problem(value, hints[name]), (name, value)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory) -> pathlib.Path:
    """A fake run of write-up 001 at one ISA level: a run folder with every file the harness writes."""
    options = RunOptions(
        profile="default",
        design="interleaved",
        runtimes=("10.0.12",),
        experiments=("001",),
        isa_levels=("native",),
        results_dir=tmp_path_factory.mktemp("results"),
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
    return execute_run(options, FakeBackend(FIXTURES / "dotnet-cell")).directory


class _Shown(tuple):
    """A fixture's value that a falsifying example shows by name, not as pages of data frames."""

    def __repr__(self) -> str:
        return "<the small run's data and report inputs>"


@pytest.fixture(scope="module")
def small_inputs(small_run):
    """The small run's loaded data and report inputs, computed once."""
    data = load_run(small_run)
    return _Shown((data, report_inputs(data)))


@FUZZ
@given(data=st.data())
def test_a_damaged_environment_file_renders_the_report_or_is_a_harness_error(small_run, small_inputs, data):
    run, inputs = small_inputs
    written = json.loads((small_run / "environment.json").read_text())
    with tempfile.TemporaryDirectory() as folder:
        _write(pathlib.Path(folder) / "environment.json", _mutated(data.draw, written))
        try:
            env = RunStore(pathlib.Path(folder)).environment()
        except HarnessError as e:
            assert "environment.json" in str(e) and e.hint
            return
    setup = run_setup_table(inputs.experiments, inputs.cells, env, run.run, run_labs_dir(small_run))
    assert compose_report(dataclasses.replace(inputs, env=env, setup=setup)).startswith("# ")
    caption_for(env, run.run, inputs.rows)


HOST_FACTS: dict[str, Any] = {
    "name": "local",
    "context": None,
    "reachable": True,
    "reason": "",
    "engine_version": "20.10",
    "arch": "x64",
    "kernel": "6.18",
    "os": "Debian",
    "cpus": 2,
    "memory_bytes": 2**33,
    "cpu_model": "AMD EPYC",
    "cpu_vendor": "amd",
    "cpu_family": 0x1A,
    "cpu_model_number": 2,
    "cpu_flags": ["avx2", "sse2"],
    "isolated_cpus": None,
    "isa_levels": ["native"],
    "details": {"machine": "m"},
}
HOSTS = {
    "schema_version": 10,
    "hosts": [
        {"host": "local", "state": "done", "facts": HOST_FACTS, "exit_code": 0, "seconds": 61.5, "images_moved": []},
        {"host": "second", "state": "lost", "facts": {**HOST_FACTS, "name": "second"}, "exit_code": 1, "lost": "x"},
    ],
}
ZEN_PLUS = load_experiments()["000"].hardware["H000a"].description
VERDICTS = pd.DataFrame(
    [
        {
            **dict(zip(CLAIM_KEY, ["000", "s", "a", "base", "time", "native", "10.0.12"])),
            "published_ratio": 1.5,
            "published_hardware": ZEN_PLUS,
            "primary": True,
            "local ratio": 1.49,
            "local verdict": "reproduced",
            "second ratio": 1.2,
            "second verdict": "same direction only",
        }
    ]
)


@FUZZ
@given(data=st.data())
def test_a_damaged_hosts_file_renders_the_hosts_page_or_is_a_harness_error(data):
    with tempfile.TemporaryDirectory() as folder:
        _write(pathlib.Path(folder) / "hosts.json", _mutated(data.draw, HOSTS))
        try:
            hosts = read_hosts_file(pathlib.Path(folder))
        except HarnessError as e:
            assert "hosts.json" in str(e) and e.hint
            return
    table = hosts_table(hosts, {})
    nearest = nearest_host_verdicts(VERDICTS, hosts, load_experiments())
    neutral_markdown(hosts_markdown("r", table, VERDICTS, {h.host: pathlib.Path(h.host) for h in hosts}, nearest), 1)


@FUZZ
@given(data=st.data(), name=st.sampled_from(["cell.json", "env.json", "verification.json"]))
def test_a_damaged_cell_file_normalizes_to_a_row_or_is_a_harness_error(data, name):
    with tempfile.TemporaryDirectory() as folder:
        cell = pathlib.Path(folder) / "cell"
        shutil.copytree(FIXTURES / "dotnet-cell", cell)
        _write(cell / name, _mutated(data.draw, json.loads((cell / name).read_text())))
        try:
            outcome = normalize_bdn_cell(cell)
        except HarnessError as e:
            assert e.hint
            return
    _fits_a_row(outcome.fields)


PROCESS = {
    "schema_version": 1,
    "cells": ["a", "b"],
    "start_to_main_ms": 40.0,
    "joint_prewarm_ms": 300.0,
    "joint_prewarm_compilations": 120,
    "bursts_ms": 900.0,
    "collections_between_bursts_ms": 30.0,
    "fresh_inputs_ms": 0.0,
    "rounds_compilations": [0, 2, 3, 3, 3],
    "handover_wait_ms": 900.0,
    "rewarm_ms": 60.0,
}


@FUZZ
@given(data=st.data())
def test_a_damaged_process_file_normalizes_to_a_row_or_is_a_harness_error(data):
    with tempfile.TemporaryDirectory() as folder:
        cell = pathlib.Path(folder) / "cell"
        cell.mkdir()
        _paired(cell, None, None)
        _write(pathlib.Path(folder) / "process.json", _mutated(data.draw, PROCESS))
        try:
            read_process(pathlib.Path(folder))
            outcome = NORMALIZERS["samples"](cell)
        except HarnessError as e:
            assert "process.json" in str(e) and e.hint
            return
    _fits_a_row(outcome.fields)


RUN = RunRecord(
    run_id="r", profile="default", design="paired", stopping={"target_rel_ci": 0.02}, job=JobSettings(), cells=["c"]
)
SIDE_RECORDS = {
    "run.json": RUN.to_dict(),
    "groups.jsonl": GroupRecord("native", "001", "single", "10.0.12", 6, 24.0, 0.018, "precise").to_dict(),
    "timeline.jsonl": TimelineRecord("session", "the whole session", 90.0, "2026-11-26T09:00:57+00:00").to_dict(),
    "noise_probe.json": {**PROBE, "groups": ["001/single@native on 10.0.12"], "schema_version": 10},
}


@FUZZ
@given(data=st.data(), name=st.sampled_from(sorted(SIDE_RECORDS)))
def test_a_damaged_run_record_renders_the_report_or_is_a_harness_error(small_run, small_inputs, data, name):
    _, inputs = small_inputs
    with tempfile.TemporaryDirectory() as folder:
        copy_ = pathlib.Path(folder) / "run"
        shutil.copytree(small_run, copy_, ignore=shutil.ignore_patterns("raw", "logs", "report"))
        document = _mutated(data.draw, SIDE_RECORDS[name])
        (copy_ / name).write_text(json.dumps(document, allow_nan=True) + "\n")
        try:
            loaded = load_run(copy_)
        except HarnessError as e:
            assert name in str(e) and e.hint
            return
    read = {"run": loaded.run, "groups": loaded.groups, "timeline": loaded.timeline, "noise_probe": loaded.noise_probe}
    assert compose_report(dataclasses.replace(inputs, **read)).startswith("# ")
    caption_for(loaded.environment, loaded.run, inputs.rows)
