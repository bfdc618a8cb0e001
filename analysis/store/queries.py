"""The store's questions across runs, each answered as a DataFrame: every run with its host, and one published
figure's history (its measured ratio and 99 % interval in every run that judged it, with where and on what each was
read: host, runtime, ISA level, lab commit), the history pages and change points to come read these."""

from __future__ import annotations

import sqlite3

import pandas as pd

#: The columns of runs(), in order (its host's beside the run's own).
RUN_LIST_COLUMNS = (
    "run_id",
    "profile",
    "design",
    "started_at",
    "finished_at",
    "git_commit",
    "git_dirty",
    "host_id",
    "cpu_model",
    "logical_cpus",
    "hypervisor",
    "kernel",
    "backend",
    "budget_minutes",
    "planned_cells",
    "cells",
    "row_count",
    "verdict_count",
    "experiments_note",
)

#: The columns of figure_history(), in order: the run, its place, then the figure as read in it.
HISTORY_COLUMNS = (
    "run_id",
    "started_at",
    "profile",
    "git_commit",
    "git_dirty",
    "host_id",
    "cpu_model",
    "runtime",
    "isa_level",
    "primary",
    "benchmark",
    "reference",
    "published_ratio",
    "measured_ratio",
    "measured_ratio_lower",
    "measured_ratio_upper",
    "pairs",
    "verdict",
)

#: Where a column of the answers comes from (its table's alias in the queries).
_SOURCES = {"cpu_model": "h", "logical_cpus": "h", "hypervisor": "h", "kernel": "h"}


def _select(columns: tuple[str, ...], default: str, sources: dict[str, str]) -> str:
    return ", ".join(f'{sources.get(c, default)}."{c}"' for c in columns)


def runs(store: sqlite3.Connection) -> pd.DataFrame:
    """Every run in the store, oldest first, with its host's CPU, logical CPUs, hypervisor and kernel."""
    query = (
        f"SELECT {_select(RUN_LIST_COLUMNS, 'r', _SOURCES)} FROM runs r LEFT JOIN hosts h ON h.host_id = r.host_id "
        "ORDER BY r.started_at, r.run_id"
    )
    return _with_flags(pd.read_sql_query(query, store), ("git_dirty", "hypervisor"))


def figure_history(store: sqlite3.Connection, experiment: str, claim: str, metric: str = "time") -> pd.DataFrame:
    """One figure's reading in every run that judged it, oldest run first: `claim` as the store names it
    ('<scenario> · <published variant>', verdict_lines.claim_id), `metric` time, allocated or memory. A run that read
    it at several ISA levels or runtimes has a line for each (`primary` marks where its verdict is read); no line when
    no run judged it."""
    sources = {**_SOURCES, **{c: "r" for c in ("started_at", "profile", "git_commit", "git_dirty", "host_id")}}
    query = (
        f"SELECT {_select(HISTORY_COLUMNS, 'v', sources)} FROM verdicts v JOIN runs r ON r.run_id = v.run_id "
        "LEFT JOIN hosts h ON h.host_id = r.host_id WHERE v.experiment = ? AND v.claim = ? AND v.metric = ? "
        "ORDER BY r.started_at, r.run_id, v.runtime, v.isa_level, v.benchmark, v.reference"
    )
    return _with_flags(pd.read_sql_query(query, store, params=(experiment, claim, metric)), ("git_dirty", "primary"))


def figures(store: sqlite3.Connection) -> pd.DataFrame:
    """Every figure the store holds a verdict of (experiment, claim, metric) with the runs that judged it."""
    return pd.read_sql_query(
        "SELECT experiment, claim, metric, COUNT(DISTINCT run_id) AS runs FROM verdicts "
        "GROUP BY experiment, claim, metric ORDER BY experiment, claim, metric",
        store,
    )


def _with_flags(frame: pd.DataFrame, columns: tuple[str, ...]) -> pd.DataFrame:
    """SQLite's 0/1 flags as booleans (missing stays missing)."""
    return frame.assign(**{c: frame[c].astype("boolean") for c in columns})


#: The columns of writeup_verdicts(), in order.
WRITEUP_COLUMNS = (
    "run_id",
    "started_at",
    "profile",
    "claim",
    "metric",
    "published_ratio",
    "measured_ratio",
    "measured_ratio_lower",
    "measured_ratio_upper",
    "verdict",
)


def writeup_verdicts(store: sqlite3.Connection, experiment: str) -> pd.DataFrame:
    """Every run's primary verdict of each of a write-up's figures, oldest run first (a line per run and figure)."""
    sources = {c: "r" for c in ("started_at", "profile")}
    query = (
        f"SELECT {_select(WRITEUP_COLUMNS, 'v', sources)} FROM verdicts v JOIN runs r ON r.run_id = v.run_id "
        'WHERE v.experiment = ? AND v."primary" = 1 ORDER BY r.started_at, r.run_id, v.claim, v.metric'
    )
    return pd.read_sql_query(query, store, params=(experiment,))


def latest_run_of_profile(store: sqlite3.Connection, experiment: str, profile: str) -> str | None:
    """The newest run of `profile` that judged a figure of the write-up, None when no run did."""
    found = store.execute(
        "SELECT r.run_id FROM runs r WHERE r.profile = ? AND EXISTS "
        "(SELECT 1 FROM verdicts v WHERE v.run_id = r.run_id AND v.experiment = ?) "
        "ORDER BY r.started_at DESC, r.run_id DESC LIMIT 1",
        (profile, experiment),
    ).fetchone()
    return None if found is None else str(found[0])
