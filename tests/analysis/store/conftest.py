"""Run folders for the store's tests: copies of a small fake run made into three runs of their own, on two hosts and
three commits, the third with Newtonsoft 1.5× slower; and the store's tables read back whole, each line in a fixed
order, to compare two stores."""

from __future__ import annotations

import json
import pathlib
import shutil
import sqlite3
from collections.abc import Callable

import pytest

from harness.backends.fake import FakeBackend
from harness.model.json_value import JsonObject
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES

#: The three runs' ids, oldest first.
RUN_IDS = ("2026-12-01T10-00-00Z", "2026-12-02T10-00-00Z", "2026-12-03T10-00-00Z")
#: Each run's environment: when it started, its commit and its host (the first and third on one machine).
ENVIRONMENTS: tuple[JsonObject, ...] = (
    {"captured_at": "2026-12-01T10:00:05+00:00", "git_commit": "a" * 40, "git_dirty": False, "cpu_model": "Test CPU A"},
    {"captured_at": "2026-12-02T10:00:05+00:00", "git_commit": "b" * 40, "git_dirty": True, "cpu_model": "Test CPU B"},
    {"captured_at": "2026-12-03T10:00:05+00:00", "git_commit": "c" * 40, "git_dirty": False, "cpu_model": "Test CPU A"},
)
#: How much slower the third run measured Newtonsoft (its variant) than the first two.
SLOWER = 1.5
#: A row's times, scaled together.
TIMES = (
    "mean_ns",
    "median_ns",
    "stddev_ns",
    "ci99_lower_ns",
    "ci99_upper_ns",
    "ci99_half_width_ns",
    "min_ns",
    "max_ns",
)


def edit_json(path: pathlib.Path, values: JsonObject) -> None:
    """Sets `values` in the JSON object the file holds."""
    data = json.loads(path.read_text())
    data.update(values)
    path.write_text(json.dumps(data))


def edit_rows(run: pathlib.Path, edit: Callable[[JsonObject], None]) -> None:
    """Applies `edit` to every row of the run's results.jsonl, written back one line each."""
    path = run / "results.jsonl"
    rows = [json.loads(line) for line in path.read_text().splitlines() if line.strip()]
    for row in rows:
        edit(row)
    path.write_text("".join(json.dumps(row) + "\n" for row in rows))


def slower(variant: str, factor: float) -> Callable[[JsonObject], None]:
    """An edit that makes every time of `variant`'s rows `factor` times longer."""

    def edit(row: JsonObject) -> None:
        if row["variant"] == variant:
            for name in TIMES:
                value = row.get(name)
                if isinstance(value, (int, float)):
                    row[name] = value * factor

    return edit


def copied_run(source: pathlib.Path, results: pathlib.Path, run_id: str, environment: JsonObject) -> pathlib.Path:
    """A copy of the run folder `source` as results/<run_id>, its environment.json edited (no report folder)."""
    run = results / run_id
    shutil.copytree(source, run, ignore=shutil.ignore_patterns("report"))
    edit_json(run / "environment.json", environment)
    return run


def contents(store: pathlib.Path) -> dict[str, list[tuple[object, ...]]]:
    """Every table of the store, its lines ordered by all their columns: two stores with the same contents are equal
    whatever order their lines were written in."""
    connection = sqlite3.connect(store)
    try:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        found = {}
        for table in sorted(tables):
            width = len(connection.execute(f'PRAGMA table_info("{table}")').fetchall())
            order = ", ".join(str(n) for n in range(1, width + 1))
            found[table] = connection.execute(f'SELECT * FROM "{table}" ORDER BY {order}').fetchall()
        return found
    finally:
        connection.close()


@pytest.fixture(scope="session")
def source_run(tmp_path_factory) -> pathlib.Path:
    """A small fake run made once for these tests, the way the shared fake run is made (tests/analysis/conftest.py:
    the same backend and options) but of fewer cells: write-up 000's case-insensitive camel figure and its Newtonsoft
    baseline, at two ISA levels."""
    backend = FakeBackend(
        FIXTURES / "dotnet-cell",
        time_scale={"newtonsoft-default": 2.0, "stj-default": 0.5},
        process_spread=0.01,
    )
    options = RunOptions(
        profile="default",
        design="interleaved",
        runtimes=("10.0.12",),
        experiments=("000",),
        benchmarks=("SystemTextCaseInsensitive_Camel", "NewtonSoftJson_Camel"),
        isa_levels=("native", "no-avx512"),
        run_id="store-source",
        results_dir=tmp_path_factory.mktemp("source"),
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
    return execute_run(options, backend).directory


@pytest.fixture(scope="session")
def three_runs(source_run, tmp_path_factory) -> list[pathlib.Path]:
    """results/ with the three runs, a `latest` link and a folder that is no run (the store passes both over)."""
    results = tmp_path_factory.mktemp("store") / "results"
    runs = [copied_run(source_run, results, run_id, env) for run_id, env in zip(RUN_IDS, ENVIRONMENTS)]
    edit_rows(runs[2], slower("newtonsoft-default", SLOWER))
    (results / "latest").symlink_to(RUN_IDS[2])
    (results / "comparisons" / "a_vs_b").mkdir(parents=True)
    return runs
