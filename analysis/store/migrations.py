"""The store's schema, version by version: each migration is the SQL that takes a store from the version before it to
its own. A new store plays them all from version 0 (an empty file); an older store plays those it lacks, in one
transaction (analysis/store/database.py). A migration a store may have played is never edited: a change to a table is
the next migration, and SCHEMA_VERSION follows it.

Every table holds only what the run folders hold: `python3 -m analysis store --rebuild` makes the same store again
from them, so a migration that cannot carry a table's data over may empty it and say so (the next rebuild refills it).
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Migration:
    """The SQL statements that take a store to `version`, and what they change, in a sentence."""

    version: int
    what: str
    statements: tuple[str, ...]


_VERSION_1 = (
    "CREATE TABLE schema_version (version INTEGER NOT NULL)",
    """CREATE TABLE hosts (
        host_id TEXT PRIMARY KEY,
        cpu_model TEXT,
        cpu_vendor TEXT,
        cpu_family INTEGER,
        cpu_model_number INTEGER,
        logical_cpus INTEGER NOT NULL,
        hypervisor INTEGER NOT NULL,
        machine TEXT NOT NULL,
        kernel TEXT NOT NULL,
        os TEXT,
        memory_bytes INTEGER NOT NULL
    )""",
    """CREATE TABLE runs (
        run_id TEXT PRIMARY KEY,
        digest TEXT NOT NULL,
        profile TEXT NOT NULL,
        design TEXT NOT NULL,
        started_at TEXT,
        finished_at TEXT,
        git_commit TEXT,
        git_dirty INTEGER,
        host_id TEXT REFERENCES hosts (host_id),
        backend TEXT,
        budget_minutes REAL,
        planned_cells INTEGER NOT NULL,
        cells INTEGER NOT NULL,
        row_count INTEGER NOT NULL,
        verdict_count INTEGER NOT NULL,
        experiments_note TEXT NOT NULL
    )""",
    """CREATE TABLE rows (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        row_key TEXT NOT NULL,
        cell_id TEXT NOT NULL,
        round_index INTEGER NOT NULL,
        round_count INTEGER NOT NULL,
        partner TEXT,
        replaced INTEGER,
        status TEXT NOT NULL,
        error TEXT,
        experiment TEXT NOT NULL,
        benchmark TEXT NOT NULL,
        "group" TEXT NOT NULL,
        baseline TEXT NOT NULL,
        lab TEXT NOT NULL,
        variant TEXT NOT NULL,
        dataset TEXT NOT NULL,
        operation TEXT NOT NULL,
        measure TEXT NOT NULL,
        isa_requested TEXT NOT NULL,
        isa_effective TEXT,
        runtime_requested TEXT NOT NULL,
        runtime TEXT,
        runtime_version TEXT,
        language TEXT,
        library TEXT,
        library_version TEXT,
        engine_version TEXT,
        design TEXT NOT NULL,
        backend TEXT,
        host TEXT,
        image_id TEXT,
        cpuset TEXT NOT NULL,
        verification_status TEXT,
        started_at TEXT,
        duration_s REAL,
        n INTEGER,
        mean_ns REAL,
        median_ns REAL,
        stddev_ns REAL,
        ci99_lower_ns REAL,
        ci99_upper_ns REAL,
        ci99_half_width_ns REAL,
        min_ns REAL,
        max_ns REAL,
        allocated_bytes_per_op REAL,
        payload_bytes INTEGER,
        total_operations INTEGER,
        invocation_count INTEGER,
        process_cells INTEGER,
        bursts_ms REAL,
        prepare_median_ns REAL,
        peak_rss_bytes INTEGER,
        cpu_other_ms REAL,
        steal_ms REAL,
        PRIMARY KEY (run_id, row_key)
    )""",
    """CREATE TABLE verdicts (
        run_id TEXT NOT NULL REFERENCES runs (run_id) ON DELETE CASCADE,
        experiment TEXT NOT NULL,
        claim TEXT NOT NULL,
        scenario TEXT NOT NULL,
        published_variant TEXT NOT NULL,
        benchmark TEXT NOT NULL,
        reference TEXT NOT NULL,
        metric TEXT NOT NULL,
        isa_level TEXT NOT NULL,
        runtime TEXT NOT NULL,
        "primary" INTEGER NOT NULL,
        published_value REAL,
        published_ratio REAL,
        ratio_source TEXT NOT NULL,
        measured_ratio REAL,
        measured_ratio_lower REAL,
        measured_ratio_upper REAL,
        pairs INTEGER,
        measured_value REAL,
        verdict TEXT NOT NULL,
        bytes_verdict TEXT,
        PRIMARY KEY (run_id, experiment, claim, benchmark, reference, metric, isa_level, runtime)
    )""",
    "CREATE INDEX verdicts_by_figure ON verdicts (experiment, claim, metric)",
    "CREATE INDEX runs_by_start ON runs (started_at)",
)

#: Every migration, oldest first; a store's version is the last one it played.
MIGRATIONS: tuple[Migration, ...] = (Migration(1, "the first tables: runs, hosts, rows and verdicts", _VERSION_1),)

#: The version this checkout's analysis writes and reads.
SCHEMA_VERSION = MIGRATIONS[-1].version
