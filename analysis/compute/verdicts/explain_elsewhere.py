"""What a run that switched nothing borrows from the newest explain run of the same host and commit: a default run's
figure that does not reproduce gets, in its "Explained by", what that explain run's switches did to the same figure
(same experiment, scenario, variant, benchmark, reference, metric, ISA level and runtime), named by the explain run's
id. A sibling run folder is untrusted input: one that cannot be read, of another host or commit, or without a
rendered reproduction table is passed over; the text taken is bounded and stripped of control characters."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

import pandas as pd

from analysis.compute.verdicts.explained_by import EXPLAINED_BY, FIGURE, SWITCHED
from harness.model.characters import INVISIBLE
from harness.model.errors import HarnessError
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.run_folder import REPORT_DIR, TABLES_DIR
from harness.model.folder.store import RunStore
from harness.model.judging import INTERVAL_METRICS, NOT_REPRODUCED, SAME_DIRECTION

#: The profile whose runs switch the factors changeable here (experiments/profiles.toml).
EXPLAIN_PROFILE = "explain"
#: The columns that find one figure's row in another run's reproduction table.
KEY = [*FIGURE, "runtime"]
#: A reproduction table larger than this was not written by the lab; longer texts are cut.
MAX_TABLE_BYTES = 32 << 20
MAX_TEXT = 4000
#: The run folders looked at, newest first (a results folder of thousands of runs is not read whole).
MAX_FOLDERS = 500


@dataclass(frozen=True)
class ExplainRun:
    """An explain run's id and its figures' 'Explained by' entries (KEY columns, EXPLAINED_BY, SWITCHED)."""

    run_id: str
    table: pd.DataFrame


def latest_explain_run(run_dir: pathlib.Path, env: EnvironmentRecord | None, profile: str) -> ExplainRun | None:
    """The newest explain run beside `run_dir` (same results folder) measured on the same host at the same commit,
    with its report rendered; None when there is none, this run's commit is not known, or this run is an explain run
    (its own switches speak)."""
    if env is None or not env.git_commit or profile == EXPLAIN_PROFILE:
        return None
    try:
        folders = sorted((p for p in run_dir.parent.iterdir() if p.is_dir() and not p.is_symlink()), reverse=True)
    except OSError:
        return None
    for folder in folders[:MAX_FOLDERS]:
        if folder.resolve() == run_dir.resolve():
            continue
        explain = _explain_run(folder, env)
        if explain is not None:
            return explain
    return None


def _explain_run(folder: pathlib.Path, env: EnvironmentRecord) -> ExplainRun | None:
    store = RunStore(folder)
    try:
        if not store.path("run.json").is_file() or store.run_record().profile != EXPLAIN_PROFILE:
            return None
        other = store.environment()
    except (HarnessError, OSError, ValueError, TypeError):
        return None  # a broken sibling is not this run's input
    if other is None or other.hostname != env.hostname or other.git_commit != env.git_commit:
        return None
    table = _explanations(folder / REPORT_DIR / TABLES_DIR / "reproduction.csv")
    return None if table is None else ExplainRun(folder.name, table)


def _explanations(path: pathlib.Path) -> pd.DataFrame | None:
    """The rows of a reproduction table that say what switches did; None when it is missing, too large or of
    another shape."""
    try:
        if not path.is_file() or path.stat().st_size > MAX_TABLE_BYTES:
            return None
        table = pd.read_csv(path, dtype=str, keep_default_na=False)
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    if not set(KEY) | {EXPLAINED_BY, SWITCHED} <= set(table.columns):
        return None
    table = table[table[EXPLAINED_BY].str.len() > 0][[*KEY, EXPLAINED_BY, SWITCHED]]
    return table.apply(lambda column: column.map(_clean))


def _clean(text: str) -> str:
    text = INVISIBLE.sub(" ", str(text)).replace("\n", " ").replace("\t", " ")
    return text if len(text) <= MAX_TEXT else text[: MAX_TEXT - 1] + "…"


def with_borrowed_explanations(verdicts: pd.DataFrame, explain: ExplainRun | None) -> pd.DataFrame:
    """The verdict table with each primary figure that does not reproduce and that this run switched nothing for
    explained by `explain`'s entry for the same figure, prefixed with that run's id."""
    if explain is None or verdicts.empty or EXPLAINED_BY not in verdicts:
        return verdicts
    found = {tuple(row[KEY]): (row[EXPLAINED_BY], row[SWITCHED]) for _, row in explain.table.iterrows()}
    out = verdicts.copy()
    if SWITCHED not in out:
        out[SWITCHED] = ""
    for index, row in out.iterrows():
        if not bool(row["primary"]) or str(row[EXPLAINED_BY]) or row["metric"] not in INTERVAL_METRICS:
            continue
        if str(row["verdict"]) not in (NOT_REPRODUCED, SAME_DIRECTION):
            continue
        entry = found.get(tuple(_text(row[column]) for column in KEY))
        if entry is not None:
            out.at[index, EXPLAINED_BY] = f"in explain run {explain.run_id} (this host and commit): {entry[0]}"
            out.at[index, SWITCHED] = entry[1]
    return out


def _text(value: object) -> str:
    """A cell as a CSV written by to_csv and read back as text holds it ('' for a missing one)."""
    return "" if value is None or (isinstance(value, float) and value != value) else str(value)
