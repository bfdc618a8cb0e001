"""Importing run folders into the store: idempotent, atomic, and the same whether a store grew run by run or was
rebuilt from every folder at once.

A run is keyed by its folder's name and the digest of its files (folder_digest.py): the same folder imported again is
`unchanged`, a changed one replaces its run's lines. Everything a run writes is read and judged before the store is
touched, then written in one transaction: a folder the readers refuse (an unreadable run.json, a damaged or torn line
of results.jsonl, a value of the wrong type) is `refused` with the reader's message and its fix, and leaves the store
as it was. Its texts are stored as text, through SQL parameters, never as SQL or markup.
"""

from __future__ import annotations

import enum
import os
import pathlib
import sqlite3
from dataclasses import dataclass

from analysis.compute.load import load_run
from analysis.store.database import StoreError, open_store, transaction
from analysis.store.folder_digest import folder_digest
from analysis.store.row_lines import ROW_COLUMNS, row_lines
from analysis.store.run_entry import HOST_COLUMNS, RUN_COLUMNS, HostEntry, RunEntry, SqlValue, host_entry, run_entry
from analysis.store.verdict_lines import VERDICT_COLUMNS, judged_run, verdict_lines
from harness.model.errors import HarnessError
from harness.model.folder.run_folder import RESULTS_FILE


class Outcome(enum.StrEnum):
    """What an import did with one run folder."""

    IMPORTED = "imported"
    UNCHANGED = "unchanged"
    REFUSED = "refused"


@dataclass(frozen=True)
class ImportResult:
    """One run folder's outcome and what to say of it: its counts, or why it was refused and the fix."""

    run_id: str
    outcome: Outcome
    detail: str

    def line(self) -> str:
        """The line the command prints for it."""
        return f"{self.outcome} {self.run_id}: {self.detail}"


@dataclass(frozen=True)
class StoredRun:
    """Everything one run writes to the store, read and judged before the transaction."""

    run: RunEntry
    host: HostEntry | None
    rows: list[tuple[SqlValue, ...]]
    verdicts: list[tuple[SqlValue, ...]]


def read_run(directory: pathlib.Path, digest: str) -> StoredRun:
    """The run folder's lines, through load_run and the report's verdicts; HarnessError when a reader refuses it, or
    when its last line is torn (the store takes a run whole: resume it first)."""
    data = load_run(directory)
    if data.torn_line is not None:
        raise StoreError(
            f"{directory}: {data.torn_line.describe(RESULTS_FILE)}",
            f"`just resume PROFILE --run-id {directory.name}` sets that line aside and measures its process again; "
            "then import the run again",
        )
    judged = judged_run(data)
    verdicts = verdict_lines(directory.name, judged.verdicts)
    return StoredRun(
        run_entry(data, digest, len(verdicts), judged.experiments_note),
        host_entry(data.environment) if data.environment else None,
        row_lines(directory.name, data.rows),
        verdicts,
    )


def stored_digest(connection: sqlite3.Connection, run_id: str) -> str | None:
    """The digest the store holds for a run; None when it holds none."""
    found = connection.execute("SELECT digest FROM runs WHERE run_id = ?", (run_id,)).fetchone()
    return str(found[0]) if found else None


def import_run(connection: sqlite3.Connection, directory: pathlib.Path) -> ImportResult:
    """Imports one run folder (its name is the run's id); never raises for a folder the readers refuse."""
    directory = directory.resolve()  # results/latest: the run it points at
    try:
        digest = folder_digest(directory)
        before = stored_digest(connection, directory.name)
        if before == digest:
            return ImportResult(directory.name, Outcome.UNCHANGED, "already in the store as it is")
        stored = read_run(directory, digest)
        with transaction(connection):
            _replace(connection, stored)
    except HarnessError as e:
        return ImportResult(directory.name, Outcome.REFUSED, f"{e} (fix: {e.hint})")
    except (OSError, sqlite3.Error) as e:
        return ImportResult(
            directory.name, Outcome.REFUSED, f"{directory} could not be stored ({e}); the store is as it was"
        )
    replaced = "" if before is None else " (its folder changed: its earlier lines replaced)"
    counts = f"{stored.run.row_count} rows, {stored.run.verdict_count} verdicts"
    return ImportResult(directory.name, Outcome.IMPORTED, counts + replaced)


def _insert(
    connection: sqlite3.Connection,
    table: str,
    columns: tuple[str, ...],
    lines: list[tuple[SqlValue, ...]],
    verb: str = "INSERT",
) -> None:
    """Inserts `lines` into `table`, each value a parameter (a text stays text, whatever it holds)."""
    names = ", ".join(f'"{c}"' for c in columns)
    marks = ", ".join("?" for _ in columns)
    connection.executemany(f'{verb} INTO "{table}" ({names}) VALUES ({marks})', lines)


def _replace(connection: sqlite3.Connection, stored: StoredRun) -> None:
    """The run's lines in place of any it had, inside the caller's transaction; a host no run names any more goes."""
    run_id = stored.run.run_id
    for table in ("rows", "verdicts", "runs"):
        connection.execute(f'DELETE FROM "{table}" WHERE run_id = ?', (run_id,))
    if stored.host is not None:
        _insert(connection, "hosts", HOST_COLUMNS, [stored.host.values()], "INSERT OR IGNORE")  # one line per host
    _insert(connection, "runs", RUN_COLUMNS, [stored.run.values()])
    _insert(connection, "rows", ROW_COLUMNS, stored.rows)
    _insert(connection, "verdicts", VERDICT_COLUMNS, stored.verdicts)
    connection.execute("DELETE FROM hosts WHERE host_id NOT IN (SELECT host_id FROM runs WHERE host_id IS NOT NULL)")


def run_folders(results_dir: pathlib.Path) -> list[pathlib.Path]:
    """Every run folder directly under `results_dir` (a folder with results.jsonl; `latest` and the comparisons,
    build logs and other folders beside the runs are passed over), by name."""
    if not results_dir.is_dir():
        raise StoreError(
            f"no results folder at {results_dir}", "measure a run first (just run-all), or pass --results-dir"
        )
    return sorted(p for p in results_dir.iterdir() if not p.is_symlink() and (p / RESULTS_FILE).is_file())


def import_runs(store: pathlib.Path, directories: list[pathlib.Path]) -> list[ImportResult]:
    """Imports each run folder into the store at `store` (made or upgraded first), one transaction each."""
    connection = open_store(store)
    try:
        return [import_run(connection, directory) for directory in directories]
    finally:
        connection.close()


def rebuild_store(store: pathlib.Path, results_dir: pathlib.Path) -> list[ImportResult]:
    """A new store from every run folder under `results_dir`, made beside the old one and put in its place when it is
    whole (an interrupted rebuild leaves the old store); a refused folder is left out and said so."""
    folders = run_folders(results_dir)
    fresh = store.with_name(store.name + ".rebuild")
    fresh.unlink(missing_ok=True)
    results = import_runs(fresh, folders)
    os.replace(fresh, store)
    return results
