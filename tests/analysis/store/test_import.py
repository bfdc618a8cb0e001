"""Three runs imported into the store fill its tables with what the report reads of them; a second import changes
nothing, a changed folder replaces its run's lines, a rebuild from the folders makes the same store, and
`python3 -m analysis store` says what it did with each run."""

from __future__ import annotations

import hashlib
import shutil
import sqlite3

import pandas as pd
import pytest

from analysis.cli import main
from analysis.compute.load import load_run
from analysis.render.writer import report_inputs
from analysis.store.database import open_store
from analysis.store.importer import Outcome, import_runs, rebuild_store
from analysis.store.queries import figure_history, figures, runs
from analysis.store.verdict_lines import claim_id
from tests.analysis.store.conftest import ENVIRONMENTS, RUN_IDS, SLOWER, contents, edit_rows, slower


@pytest.fixture(scope="module")
def store(three_runs, tmp_path_factory):
    """A store the three runs were imported into, one by one."""
    path = tmp_path_factory.mktemp("store") / "store.sqlite"
    results = import_runs(path, three_runs)
    assert [r.line().split(":")[0] for r in results] == [f"imported {run_id}" for run_id in RUN_IDS], results
    return path


def _query(store, sql, *params):
    connection = sqlite3.connect(store)
    try:
        return connection.execute(sql, params).fetchall()
    finally:
        connection.close()


def test_each_run_is_a_line_of_runs_with_its_commit_host_and_counts(store, three_runs):
    lines = _query(store, "SELECT run_id, profile, git_commit, git_dirty, host_id, started_at, row_count FROM runs")
    assert [line[0] for line in sorted(lines)] == list(RUN_IDS)
    by_id = {line[0]: line for line in lines}
    for run_id, environment, folder in zip(RUN_IDS, ENVIRONMENTS, three_runs):
        _, profile, commit, dirty, _, started, row_count = by_id[run_id]
        assert (profile, commit, bool(dirty), started) == (
            "default",
            environment["git_commit"],
            environment["git_dirty"],
            environment["captured_at"],
        )
        assert row_count == len(load_run(folder).rows) > 0
    hosts = [by_id[run_id][4] for run_id in RUN_IDS]
    assert hosts[0] == hosts[2] != hosts[1], "runs 1 and 3 ran on one machine, run 2 on another"
    assert sorted(_query(store, "SELECT cpu_model FROM hosts")) == [("Test CPU A",), ("Test CPU B",)]


def _plain(value):
    """A frame's missing number (NaN) as the store's NULL."""
    return None if pd.isna(value) else value


def _row_id(line):
    return line[0], line[1]


def test_rows_hold_each_result_row_as_the_report_reads_it(store, three_runs):
    frame = load_run(three_runs[2]).rows
    stored = _query(
        store,
        "SELECT cell_id, round_index, variant, isa_requested, runtime_requested, status, median_ns FROM rows "
        "WHERE run_id = ? ORDER BY row_key",
        RUN_IDS[2],
    )
    expected = [
        (r.cell_id, r.round_index, r.variant, r.isa_requested, r.runtime_requested, r.status, _plain(r.median_ns))
        for r in frame.itertuples()
    ]
    assert sorted(stored, key=_row_id) == sorted(expected, key=_row_id)
    newtonsoft = [line[6] for line in stored if line[2] == "newtonsoft-default" and line[6] is not None]
    assert newtonsoft, "the fake run measured Newtonsoft"


def test_verdicts_are_the_reports_own_for_every_figure(store, three_runs):
    report = report_inputs(load_run(three_runs[0])).verdicts
    stored = _query(
        store,
        'SELECT experiment, claim, metric, isa_level, runtime, "primary", measured_ratio, verdict FROM verdicts '
        "WHERE run_id = ?",
        RUN_IDS[0],
    )
    assert len(stored) == len(report) > 0
    expected = {
        (r.experiment, claim_id(r.scenario, r.published_variant), r.metric, r.isa_level, r.runtime): r.verdict
        for r in report.itertuples()
    }
    assert {line[:5]: line[7] for line in stored} == expected
    assert _query(store, "SELECT verdict_count FROM runs WHERE run_id = ?", RUN_IDS[0]) == [(len(report),)]


def test_a_second_import_leaves_the_store_as_it_was(store, three_runs, tmp_path):
    copy = tmp_path / "store.sqlite"
    shutil.copy(store, copy)
    before, file_before = contents(copy), hashlib.sha256(copy.read_bytes()).hexdigest()
    again = import_runs(copy, [*three_runs, three_runs[2].parent / "latest"])
    assert [r.outcome for r in again] == [Outcome.UNCHANGED] * 4
    assert contents(copy) == before
    assert hashlib.sha256(copy.read_bytes()).hexdigest() == file_before


def test_a_changed_folder_replaces_its_runs_lines(store, three_runs, tmp_path):
    copy, run = tmp_path / "store.sqlite", tmp_path / RUN_IDS[0]
    shutil.copy(store, copy)
    shutil.copytree(three_runs[0], run)
    before = contents(copy)
    edit_rows(run, slower("newtonsoft-default", SLOWER))
    (result,) = import_runs(copy, [run])
    assert (result.outcome, "earlier lines replaced" in result.detail) == (Outcome.IMPORTED, True)
    after = contents(copy)
    assert len(after["rows"]) == len(before["rows"]) and len(after["runs"]) == 3
    assert after["rows"] != before["rows"] and after["runs"] != before["runs"], "new times, a new digest"


def test_a_rebuild_from_the_folders_makes_the_same_store(store, three_runs, tmp_path):
    rebuilt = tmp_path / "store.sqlite"
    rebuilt.write_text("an old store, replaced whole")
    results = rebuild_store(rebuilt, three_runs[0].parent)
    assert [(r.run_id, r.outcome) for r in results] == [(run_id, Outcome.IMPORTED) for run_id in RUN_IDS]
    assert contents(rebuilt) == contents(store)


def test_a_figures_history_has_its_ratio_and_interval_in_every_run(store):
    connection = open_store(store)
    try:
        claim = _a_figure_against_newtonsoft(connection)
        history = figure_history(connection, "000", claim)
        every = figures(connection)
        listed = runs(connection)
    finally:
        connection.close()
    primary = history[history["primary"]]
    assert list(primary["run_id"]) == list(RUN_IDS)
    assert list(primary["git_commit"]) == [e["git_commit"] for e in ENVIRONMENTS]
    assert list(primary["cpu_model"]) == [e["cpu_model"] for e in ENVIRONMENTS]
    assert (primary["measured_ratio_lower"] <= primary["measured_ratio"]).all()
    assert (primary["measured_ratio"] <= primary["measured_ratio_upper"]).all()
    first, second, third = primary["measured_ratio"]
    assert second == first, "the same rows on another host and commit: the same ratio"
    assert third == pytest.approx(first / SLOWER, rel=1e-3), "its reference measured 1.5× slower"
    assert set(history["isa_level"]) == {"native", "no-avx512"}
    assert ("000", claim, "time", 3) in set(every.itertuples(index=False, name=None))
    assert list(listed["run_id"]) == list(RUN_IDS) and list(listed["git_dirty"]) == [False, True, False]


def _a_figure_against_newtonsoft(connection):
    """A time figure of write-up 000 whose reference is Newtonsoft and whose benchmark is not."""
    (claim,) = connection.execute(
        "SELECT claim FROM verdicts WHERE experiment = '000' AND metric = 'time' AND \"primary\" = 1 "
        "AND reference LIKE 'NewtonSoft%' AND benchmark NOT LIKE 'NewtonSoft%' AND measured_ratio IS NOT NULL "
        "ORDER BY claim LIMIT 1"
    ).fetchone()
    return claim


def test_the_command_says_what_it_did_with_each_run(store, three_runs, tmp_path, capsys):
    path, results, broken = tmp_path / "store.sqlite", three_runs[0].parent, tmp_path / "broken"
    shutil.copy(store, path)
    shutil.copytree(three_runs[1], broken)
    (broken / "run.json").write_text("{torn")
    assert main(["store", "--store", str(path), "--results-dir", str(results)]) == 0
    assert main(["store", str(broken), str(three_runs[1]), "--store", str(path)]) == 1, "a folder refused"
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0] for line in lines] == [
        *(f"unchanged {run_id}" for run_id in RUN_IDS),
        str(path),
        "refused broken",
        f"unchanged {RUN_IDS[1]}",
        str(path),
    ]
    assert "run.json cannot be read" in lines[-3] and "(fix: restore the run folder" in lines[-3]
    assert main(["store", str(three_runs[1]), "--rebuild", "--store", str(path)]) == 2
    assert "hint: " in capsys.readouterr().err
