"""The store's schema: a new store plays every migration, an older one those it lacks (its lines kept), a newer one or
a file that is no store is refused with the fix and left as it was, and the columns the importer writes are the
tables' own."""

from __future__ import annotations

import hashlib
import sqlite3

import pytest

from analysis.store.database import StoreError, open_store
from analysis.store.migrations import MIGRATIONS, SCHEMA_VERSION, Migration
from analysis.store.row_lines import ROW_COLUMNS
from analysis.store.run_entry import HOST_COLUMNS, RUN_COLUMNS
from analysis.store.verdict_lines import VERDICT_COLUMNS

#: One run's line of `runs`, written by hand.
RUN_LINE = {
    "run_id": "2026-01-01T00-00-00Z",
    "digest": "d",
    "profile": "default",
    "design": "paired",
    "planned_cells": 2,
    "cells": 2,
    "row_count": 4,
    "verdict_count": 1,
    "experiments_note": "",
}


def _columns(connection, table):
    return tuple(row[1] for row in connection.execute(f'PRAGMA table_info("{table}")'))


def _version(path):
    connection = sqlite3.connect(path)
    try:
        return connection.execute("SELECT version FROM schema_version").fetchall()
    finally:
        connection.close()


def test_a_new_store_has_every_table_at_this_version_and_the_columns_the_importer_writes(tmp_path):
    connection = open_store(tmp_path / "new" / "store.sqlite")
    try:
        tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        assert tables == {"schema_version", "runs", "hosts", "rows", "verdicts"}
        assert _columns(connection, "runs") == RUN_COLUMNS
        assert _columns(connection, "hosts") == HOST_COLUMNS
        assert _columns(connection, "rows") == ROW_COLUMNS
        assert _columns(connection, "verdicts") == VERDICT_COLUMNS
    finally:
        connection.close()
    assert _version(tmp_path / "new" / "store.sqlite") == [(SCHEMA_VERSION,)]


def _store_with_a_run(path):
    connection = open_store(path)
    names = ", ".join(RUN_LINE)
    connection.execute(
        f"INSERT INTO runs ({names}) VALUES ({', '.join('?' for _ in RUN_LINE)})", tuple(RUN_LINE.values())
    )
    connection.close()


def test_an_older_store_plays_the_migrations_it_lacks_and_keeps_its_lines(tmp_path):
    path = tmp_path / "store.sqlite"
    _store_with_a_run(path)
    newer = (*MIGRATIONS, Migration(SCHEMA_VERSION + 1, "a note per run", ("ALTER TABLE runs ADD COLUMN note TEXT",)))
    connection = open_store(path, newer)
    try:
        lines = connection.execute("SELECT run_id, note FROM runs").fetchall()
    finally:
        connection.close()
    assert lines == [(RUN_LINE["run_id"], None)]
    assert _version(path) == [(SCHEMA_VERSION + 1,)]


def test_a_migration_that_fails_leaves_the_store_at_its_version(tmp_path):
    path = tmp_path / "store.sqlite"
    _store_with_a_run(path)
    broken = Migration(SCHEMA_VERSION + 1, "a broken one", ("ALTER TABLE runs ADD COLUMN note TEXT", "NOT SQL"))
    with pytest.raises(StoreError, match=f"migration to schema version {SCHEMA_VERSION + 1} \\(a broken one\\)"):
        open_store(path, (*MIGRATIONS, broken))
    connection = open_store(path)
    try:
        assert "note" not in _columns(connection, "runs")
    finally:
        connection.close()
    assert _version(path) == [(SCHEMA_VERSION,)]


def test_a_store_of_a_newer_version_is_refused_with_the_fix_and_left_as_it_was(tmp_path):
    path = tmp_path / "store.sqlite"
    _store_with_a_run(path)
    connection = sqlite3.connect(path)
    connection.execute("UPDATE schema_version SET version = ?", (SCHEMA_VERSION + 7,))
    connection.commit()
    connection.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    with pytest.raises(
        StoreError, match=f"schema version {SCHEMA_VERSION + 7}; .* up to version {SCHEMA_VERSION}"
    ) as e:
        open_store(path)
    assert "--rebuild" in e.value.hint and "check out" in e.value.hint
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before


@pytest.mark.parametrize(
    "make, says",
    [
        (lambda path: path.write_text("results, but as text\n" * 100), "cannot be used as a results store"),
        (lambda path: sqlite3.connect(path).execute("CREATE TABLE notes (x)").connection.commit(), "no schema_version"),
    ],
    ids=["a text file", "another database"],
)
def test_a_file_that_is_no_store_is_refused_with_the_fix(tmp_path, make, says):
    path = tmp_path / "store.sqlite"
    make(path)
    with pytest.raises(StoreError, match=says) as e:
        open_store(path)
    assert "--rebuild" in e.value.hint
