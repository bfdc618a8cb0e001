"""Loading a run folder into a tidy DataFrame (one row per cell) plus its environment."""

from __future__ import annotations

import dataclasses
import pathlib
from dataclasses import dataclass

import pandas as pd

from harness.model.cells import JobSettings
from harness.model.errors import HarnessError
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.records import ResultRow, RowStatus
from harness.model.folder.result_lines import UnreadableLine
from harness.model.folder.run_folder import (
    CALIBRATION_FILE,
    GROUPS_FILE,
    KEPT_LABS_DIR,
    NOISE_PROBE_FILE,
    RESULTS_FILE,
    RUN_FILE,
    TIMELINE_FILE,
)
from harness.model.folder.run_records import CalibrationRecord, GroupRecord, NoiseProbeRecord, RunRecord, TimelineRecord
from harness.model.folder.store import RunStore
from harness.model.folder.stored_names import stored_lab
from harness.model.stats.warmup_check import row_id, short_warmups


@dataclass(frozen=True)
class RunData:
    """A run's rows (last row per cell), environment and selection."""

    directory: pathlib.Path
    rows: pd.DataFrame
    environment: EnvironmentRecord | None  # None: a run folder without environment.json (copied without it)
    run: RunRecord
    calibrations: list[CalibrationRecord]
    timeline: list[TimelineRecord]
    groups: list[GroupRecord]  # how each group stopped, per session (groups.jsonl; empty for runs made before it)
    # A torn last line of results.jsonl (a run stopped mid-write) left out of this report, said in its header
    set_aside: str = ""
    noise_probe: NoiseProbeRecord | None = None  # the forecast made at the start (noise_probe.json), where one was
    torn_line: UnreadableLine | None = None  # the torn last line of results.jsonl that `set_aside` names


def unknown_run(run_id: str) -> RunRecord:
    """The record of a run folder without run.json (copied without it, or made before it existed)."""
    return RunRecord(run_id=run_id, profile="?", design="?", stopping={}, job=JobSettings(), cells=[])


#: The error text of a row set aside by the analysis (it stays 'ok' in results.jsonl).
SET_ASIDE = "set aside: "


def set_aside(rows: pd.DataFrame) -> pd.DataFrame:
    """Rows of processes whose warm-up was cut short (harness/model/stats/warmup_check.py) become 'skipped', with the
    reason as
    their
    error: every ratio, mean and count then leaves them out, as the stopping rule did, and the report names them."""
    if rows.empty or "prewarm_compilations" not in rows:
        return rows
    short = short_warmups(rows.itertuples())
    if not short:
        return rows
    rows = rows.copy()
    hit = [row_id(r) in short for r in rows.itertuples()]
    rows.loc[hit, "error"] = [SET_ASIDE + short[row_id(r)] for r, h in zip(rows.itertuples(), hit) if h]
    rows.loc[hit, "status"] = RowStatus.SKIPPED
    return rows


def with_todays_lab_names(rows: pd.DataFrame, directory: pathlib.Path) -> pd.DataFrame:
    """Rows of a run that did not keep its labs folder are read against today's lab/: a lab renamed since then
    (harness/model/folder/stored_names.py) reads under its name of today. A run that kept its labs keeps its own names.
    """
    if rows.empty or "lab" not in rows or any((directory / KEPT_LABS_DIR).glob("*/lab.toml")):
        return rows
    return rows.assign(lab=rows["lab"].map(stored_lab))


def load_run(directory: pathlib.Path) -> RunData:
    """Reads results.jsonl, environment.json and run.json; schema versions are checked by RunStore."""
    directory = directory.resolve()
    if not (directory / RESULTS_FILE).is_file():
        raise HarnessError(
            f"no {RESULTS_FILE} in {directory}",
            "pass a run folder (results/<run-id> or results/latest) that has finished at least one cell",
        )
    store = RunStore(directory)
    records = [store.localized(row).to_dict() for row in store.rows().values()]
    # a folder whose only line is torn: no rows, but every column, so each tool gives its empty table, not a KeyError
    rows = pd.DataFrame(records) if records else pd.DataFrame(columns=[f.name for f in dataclasses.fields(ResultRow)])
    rows = set_aside(with_todays_lab_names(rows, directory))
    torn = store.torn_line.describe(RESULTS_FILE) if store.torn_line else ""
    run = store.run_record() if (directory / RUN_FILE).is_file() else unknown_run(directory.name)
    return RunData(
        directory,
        rows,
        store.environment(),
        run,
        store.records(CALIBRATION_FILE, CalibrationRecord),
        store.records(TIMELINE_FILE, TimelineRecord),
        store.records(GROUPS_FILE, GroupRecord),
        f"{torn}: left out of this report; `just resume` measures that process again" if torn else "",
        (
            NoiseProbeRecord.from_dict(store.read_json(NOISE_PROBE_FILE), NOISE_PROBE_FILE)
            if (directory / NOISE_PROBE_FILE).is_file()
            else None
        ),
        store.torn_line,
    )
