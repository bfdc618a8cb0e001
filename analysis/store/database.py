"""Opening the store: the SQLite file made or upgraded to this checkout's schema (migrations.py), refused with the
fix when it is not a store, or was written by a newer analysis; and the one transaction each change runs in.

The connection is in autocommit mode (`isolation_level=None`) so that this module, not the sqlite3 module's implicit
transactions, says where each begins and ends: `BEGIN IMMEDIATE` takes the write lock before anything is read, so two
imports at once wait for each other instead of both deciding from the same old state.
"""

from __future__ import annotations

import contextlib
import pathlib
import sqlite3
from collections.abc import Iterator, Sequence

from analysis.store.migrations import MIGRATIONS, Migration
from harness.model.errors import HarnessError

#: How long a second process waits for the store's write lock, in seconds.
LOCK_TIMEOUT_S = 60.0
#: What to do with a store this checkout cannot use: it holds nothing the run folders do not.
REBUILD_HINT = "python3 -m analysis store --rebuild makes it again from the run folders (it holds nothing else)"


class StoreError(HarnessError):
    """The store file cannot be used, or a run folder cannot be stored in it."""


@contextlib.contextmanager
def transaction(connection: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One transaction around the block: committed when it ends, rolled back when it raises (the store as it was)."""
    connection.execute("BEGIN IMMEDIATE")
    try:
        yield connection
    except BaseException:
        if connection.in_transaction:  # SQLite may have rolled back already (a full disk)
            connection.execute("ROLLBACK")
        raise
    connection.execute("COMMIT")


def open_store(path: pathlib.Path, migrations: Sequence[Migration] = MIGRATIONS) -> sqlite3.Connection:
    """The store at `path`, made when it does not exist and upgraded when it is older than `migrations`' last version;
    a file that is not a store, or one of a newer version, is StoreError naming it."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        connection = sqlite3.connect(path, timeout=LOCK_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as e:
        raise StoreError(
            f"cannot open the store {path}: {e}", f"check the folder is writable; {REBUILD_HINT}"
        ) from None
    try:
        connection.execute("PRAGMA foreign_keys = ON")
        with transaction(connection):
            _upgrade(connection, path, migrations)
    except sqlite3.Error as e:
        connection.close()
        raise StoreError(
            f"{path} cannot be used as a results store ({e})",
            f"another import holds it while it runs (wait for it); otherwise move the file aside; {REBUILD_HINT}",
        ) from None
    except HarnessError:
        connection.close()
        raise
    return connection


def stored_version(connection: sqlite3.Connection, path: pathlib.Path) -> int:
    """The schema version the store was last brought to; 0 for an empty file; StoreError for a database of another
    kind (tables, but no schema_version)."""
    tables = {name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
    if "schema_version" not in tables:
        if tables:
            raise StoreError(
                f"{path} is an SQLite database but not a results store (no schema_version table; it has "
                f"{', '.join(sorted(tables)[:5])})",
                f"pass another --store, or move that file aside; {REBUILD_HINT}",
            )
        return 0
    versions = [v for (v,) in connection.execute("SELECT version FROM schema_version")]
    if len(versions) != 1 or not isinstance(versions[0], int):
        raise StoreError(f"{path} holds no single schema version ({versions[:3]!r})", f"move it aside; {REBUILD_HINT}")
    return versions[0]


def _upgrade(connection: sqlite3.Connection, path: pathlib.Path, migrations: Sequence[Migration]) -> None:
    """Plays the migrations the store lacks, in order, inside the caller's transaction."""
    version = stored_version(connection, path)
    newest = migrations[-1].version if migrations else 0
    if version > newest:
        raise StoreError(
            f"{path} has schema version {version}; this checkout's analysis reads stores up to version {newest}",
            "check out the commit that wrote it (or a newer one); or keep it and make a store of this version beside "
            "it from the run folders: python3 -m analysis store --rebuild --store OTHER_PATH",
        )
    for migration in migrations:
        if migration.version <= version:
            continue
        try:
            for statement in migration.statements:
                connection.execute(statement)
        except sqlite3.Error as e:
            raise StoreError(
                f"{path}: its migration to schema version {migration.version} ({migration.what}) failed: {e}",
                f"the store is as it was (version {version}); {REBUILD_HINT}",
            ) from None
        connection.execute("DELETE FROM schema_version")
        connection.execute("INSERT INTO schema_version (version) VALUES (?)", (migration.version,))
