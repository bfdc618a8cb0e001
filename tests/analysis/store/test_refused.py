"""A run folder is untrusted: a broken one (an unreadable run.json, a torn or damaged line of results.jsonl, a field of
the wrong type, a negative time) is refused with the reader's message naming the file and a fix, and leaves the store
as it was, its earlier lines of that run too; a failure while writing rolls the whole run back; a text that looks like
markup or SQL is stored as the text it is."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3

import pytest

from analysis.store import importer
from analysis.store.importer import Outcome, import_runs
from tests.analysis.store.conftest import RUN_IDS, SLOWER, contents, edit_json, edit_rows, slower

#: Markup and SQL in one text: stored as it is, never run as either.
HOSTILE = "<script>alert(1)</script>'); DROP TABLE runs; --"


@pytest.fixture(scope="module")
def store(three_runs, tmp_path_factory):
    """A store holding the first run."""
    path = tmp_path_factory.mktemp("store") / "store.sqlite"
    assert [r.outcome for r in import_runs(path, three_runs[:1])] == [Outcome.IMPORTED]
    return path


@pytest.fixture
def run_and_store(three_runs, store, tmp_path):
    """(a copy of the first run, to break; a copy of the store that holds it as it was)."""
    run, copy = tmp_path / RUN_IDS[0], tmp_path / "store.sqlite"
    shutil.copytree(three_runs[0], run)
    shutil.copy(store, copy)
    return run, copy


def _torn_line(run, where):
    path = run / "results.jsonl"
    lines = path.read_text().splitlines(keepends=True)
    lines.insert(where if where >= 0 else len(lines), '{"run_id": "golden-run", "sta')
    path.write_text("".join(lines))


def _first_row(**values):
    def edit(run):
        path = run / "results.jsonl"
        lines = path.read_text().splitlines()
        lines[0] = json.dumps({**json.loads(lines[0]), **values})
        path.write_text("\n".join(lines) + "\n")

    return edit


BROKEN = {
    "a torn line in the middle": (lambda run: _torn_line(run, 1), r"results.jsonl line 2 .*not JSON"),
    "a torn last line": (lambda run: _torn_line(run, -1), r"results.jsonl line \d+ could not be read.*just resume"),
    "a time that is text": (_first_row(median_ns="fast"), r"results.jsonl line 1 .*ResultRow.median_ns = 'fast'"),
    "a negative time": (_first_row(min_ns=-1.0), r"results.jsonl line 1 .*min_ns = -1.0: a time.*not negative"),
    "a newer row": (_first_row(schema_version=99), r"results.jsonl:1 has schema_version 99"),
    "run.json not JSON": (lambda run: (run / "run.json").write_text("{not json"), r"run.json cannot be read"),
    "a profile that is a number": (lambda run: edit_json(run / "run.json", {"profile": 7}), r"RunRecord.profile = 7"),
    "a CPU model that is a list": (
        lambda run: edit_json(run / "environment.json", {"cpu_model": ["x"]}),
        r"environment.json: EnvironmentRecord.cpu_model",
    ),
}


@pytest.mark.parametrize("name", BROKEN)
def test_a_broken_folder_is_refused_naming_its_file_and_the_store_is_as_it_was(run_and_store, name):
    run, store = run_and_store
    break_it, says = BROKEN[name]
    before = contents(store)
    edit_rows(run, slower("newtonsoft-default", SLOWER))  # a changed folder: its earlier lines must stay
    break_it(run)
    (result,) = import_runs(store, [run])
    assert result.outcome == Outcome.REFUSED
    assert result.run_id == RUN_IDS[0] and "(fix: " in result.detail
    assert re.search(says, result.detail), result.detail
    assert contents(store) == before


def test_a_failure_while_writing_rolls_the_whole_run_back(run_and_store, monkeypatch):
    run, store = run_and_store
    before = contents(store)
    edit_rows(run, slower("newtonsoft-default", SLOWER))
    insert = importer._insert

    def failing(connection, table, *args):
        if table == "verdicts":  # after its run and rows lines are written
            raise sqlite3.OperationalError("database or disk is full")
        insert(connection, table, *args)

    monkeypatch.setattr(importer, "_insert", failing)
    (result,) = import_runs(store, [run])
    assert (result.outcome, "disk is full" in result.detail) == (Outcome.REFUSED, True)
    assert contents(store) == before


def test_markup_and_sql_in_a_text_are_stored_as_text(run_and_store):
    run, store = run_and_store
    edit_rows(run, lambda row: row.update(library_version=HOSTILE))
    edit_json(run / "environment.json", {"cpu_model": HOSTILE})
    (result,) = import_runs(store, [run])
    assert result.outcome == Outcome.IMPORTED, result.line()
    connection = sqlite3.connect(store)
    try:
        versions = connection.execute("SELECT DISTINCT library_version FROM rows").fetchall()
        models = connection.execute("SELECT cpu_model FROM hosts").fetchall()
        (count,) = connection.execute("SELECT COUNT(*) FROM runs").fetchone()
    finally:
        connection.close()
    assert versions == [(HOSTILE,)] and models == [(HOSTILE,)] and count == 1
