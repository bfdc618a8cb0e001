"""The run folder results/<run-id>/: results.jsonl (append-only), environment.json, run.json, raw/, logs/.

Each finished cell is appended at once, so an interrupted run keeps everything it measured.
When a cell's round appears more than once (a resumed retry), the last row wins.
"""

from __future__ import annotations

import dataclasses
import datetime as _dt
import json
import os
import pathlib
import time

from harness.model.defaults import REPO_ROOT
from harness.model.errors import OutputDirError, ResumeError, SchemaError
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.records import ResultRow
from harness.model.folder.result_lines import QUARANTINE_FILE, DamagedResultsError, UnreadableLine, parse_lines
from harness.model.folder.run_folder import (
    ENVIRONMENT_FILE,
    LATEST_LINK,
    LOGS_DIR,
    RAW_DIR,
    READABLE_SCHEMA_VERSIONS,
    RESULTS_FILE,
    RUN_FILE,
    TIMELINE_FILE,
    relative_to_run,
)
from harness.model.folder.run_records import Record, RunRecord, TimelineRecord
from harness.model.json_value import JsonMapping, JsonObject, JsonValue


def new_run_id(now: _dt.datetime | None = None) -> str:
    """A sortable, file-system-safe id: 2026-11-21T14-03-00Z."""
    now = now or _dt.datetime.now(_dt.timezone.utc)
    return now.strftime("%Y-%m-%dT%H-%M-%SZ")


class RunStore:
    """Reads and writes one run folder."""

    def __init__(self, directory: pathlib.Path) -> None:
        self.directory = directory
        self.run_id = directory.name

    @classmethod
    def create(cls, results_dir: pathlib.Path, run_id: str) -> RunStore:
        """Makes a new run folder; raises OutputDirError if it cannot be written."""
        directory = results_dir / run_id
        if directory.exists():
            raise ResumeError(
                f"run folder {directory} already exists", "pass --resume to continue it, or choose another --run-id"
            )
        try:
            for sub in ("", RAW_DIR, LOGS_DIR):
                (directory / sub).mkdir(parents=True, exist_ok=True)
            probe = directory / ".write-test"
            probe.write_text("ok")
            probe.unlink()
        except OSError as e:
            raise OutputDirError(
                f"cannot write results to {directory}: {e.strerror}", "choose a writable folder with --results-dir"
            ) from e
        return cls(directory)

    @classmethod
    def open(cls, results_dir: pathlib.Path, run_id: str | None) -> RunStore:
        """Opens an existing run to resume it: the named one, else the latest."""
        directory = results_dir / (run_id or LATEST_LINK)
        if not (directory / RUN_FILE).is_file():
            raise ResumeError(
                f"no run to resume at {directory}", f"list runs with `ls {results_dir}`, then pass --run-id"
            )
        return cls(directory.resolve())

    def path(self, *parts: str) -> pathlib.Path:
        """A path inside the run folder."""
        return self.directory.joinpath(*parts)

    def relative(self, path: pathlib.Path) -> str:
        """A path relative to the run folder, as stored in rows."""
        return str(path.relative_to(self.directory))

    def write_json(self, name: str, data: JsonValue) -> None:
        """Writes a JSON file in the run folder."""
        self.path(name).write_text(json.dumps(data, indent=2, sort_keys=True) + "\n")

    def read_json(self, name: str) -> JsonObject:
        """Reads a JSON file from the run folder, checking its schema version."""
        path = self.path(name)
        try:
            data = json.loads(path.read_bytes().decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise DamagedResultsError(
                f"{path} cannot be read ({str(e)[:200]})", "restore the run folder from a copy: the run wrote it whole"
            ) from None
        if not isinstance(data, dict):
            raise DamagedResultsError(f"{path} holds a JSON {type(data).__name__}, not an object", "restore it")
        _check_schema(data, path)
        return data

    def localized(self, row: ResultRow) -> ResultRow:
        """The row with any absolute path inside the run folder, or inside the repository, in its error written
        relative to that folder (a report names `logs/x.log`, never the machine's `/root/…/logs/x.log`)."""
        if not row.error:
            return row
        text = relative_to_run(row.error, self.run_id).replace(f"{REPO_ROOT}/", "")
        return row if text == row.error else dataclasses.replace(row, error=text)

    def append(self, row: ResultRow) -> None:
        """Appends one row and flushes it to disk before the next cell starts."""
        with self.path(RESULTS_FILE).open("a") as f:
            f.write(json.dumps(row.to_dict(), sort_keys=True) + "\n")
            f.flush()
            os.fsync(f.fileno())

    def append_json_line(self, name: str, data: JsonObject) -> None:
        """Appends one JSON object as a line of a side log (calibration.jsonl)."""
        with self.path(name).open("a") as f:
            f.write(json.dumps(data, sort_keys=True) + "\n")

    def json_lines(self, name: str) -> list[JsonObject]:
        """The objects of a side log, schema-checked; empty when it does not exist."""
        path = self.path(name)
        if not path.is_file():
            return []
        parsed, _ = parse_lines(path.read_bytes(), str(path))  # a torn last line (a run stopped mid-write) left out
        for number, data in parsed:
            _check_schema(data, path, number)
        return [data for _, data in parsed]

    def records(self, name: str, record: type[Record]) -> list[Record]:
        """The typed records of a side log (run_records.py), schema-checked; empty when it does not exist."""
        path = self.path(name)
        return [record.from_dict(data, f"{path}:{n}") for n, data in enumerate(self.json_lines(name), 1)]

    def environment(self) -> EnvironmentRecord | None:
        """environment.json as its typed record, checked once here for every reader; None for a run folder without
        one (copied without it)."""
        path = self.path(ENVIRONMENT_FILE)
        return EnvironmentRecord.from_dict(self.read_json(ENVIRONMENT_FILE), str(path)) if path.is_file() else None

    def run_record(self) -> RunRecord:
        """run.json as its typed record."""
        return RunRecord.from_dict(self.read_json(RUN_FILE), str(self.path(RUN_FILE)))

    def rows(self) -> dict[str, ResultRow]:
        """The current row per cell and round (row_key; the last one written wins). A torn last line (a run stopped
        mid-write) is left out and kept in `torn_line`; any other unreadable line is DamagedResultsError."""
        path = self.path(RESULTS_FILE)
        rows: dict[str, ResultRow] = {}
        self.torn_line: UnreadableLine | None = None
        if path.is_file():
            parsed, self.torn_line = parse_lines(path.read_bytes(), str(path))
            for number, data in parsed:
                _check_schema(data, path, number)
                try:
                    row = ResultRow.from_dict(data)
                except (TypeError, ValueError) as e:
                    raise DamagedResultsError(
                        f"{path} line {number} is not a result row: {e}",
                        f"restore the run folder from a copy, or move line {number} out of {RESULTS_FILE} by hand and "
                        "`just resume` to measure that process again",
                    ) from None
                rows[row.row_key] = row
        return rows

    def set_aside_torn_line(self) -> str:
        """Moves a torn last line of results.jsonl to results.quarantine.jsonl (appended, never deleted) before a
        resumed run appends after it; returns what it did ('' when nothing was torn). Its process is measured again:
        its row is missing."""
        path = self.path(RESULTS_FILE)
        if not path.is_file():
            return ""
        data = path.read_bytes()
        _, torn = parse_lines(data, str(path))
        if torn is None:
            return ""
        with self.path(QUARANTINE_FILE).open("ab") as quarantine:
            quarantine.write(torn.raw.rstrip(b"\n") + b"\n")
        kept = b"\n".join(data.split(b"\n")[: torn.number - 1]).rstrip(b"\n")
        temporary = path.with_name(path.name + ".tmp")
        temporary.write_bytes(kept + b"\n" if kept else b"")
        os.replace(temporary, path)
        return f"{torn.describe(RESULTS_FILE)}: moved to {QUARANTINE_FILE}; its process is measured again"

    def record_phase(self, phase: str, started: float, what: str) -> None:
        """Appends one line to the run's timeline: a phase of this session and its wall time since `started`
        (monotonic)."""
        record = TimelineRecord(
            phase=phase,
            what=what,
            seconds=round(time.monotonic() - started, 2),
            ended_at=_dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        )
        self.append_json_line(TIMELINE_FILE, record.to_dict())

    def record_step(self, phase: str, started: float, what: str) -> None:
        """record_phase for a step after the session (`just run-all`'s conformance pass and report), so a later plan
        can learn its time (harness/planning/history.py); a run folder that cannot be written to (a copy, read-only)
        loses nothing but that line."""
        try:
            self.record_phase(phase, started, what)
        except OSError:
            pass

    def mark_latest(self) -> None:
        """Points results/latest at this run."""
        link = self.directory.parent / LATEST_LINK
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(self.directory.name)


def _check_schema(data: JsonMapping, path: pathlib.Path, line: int | None = None) -> None:
    version = data.get("schema_version")
    if version not in READABLE_SCHEMA_VERSIONS:
        where = f"{path}:{line}" if line else str(path)
        raise SchemaError(
            f"{where} has schema_version {version!r}; this harness reads "
            f"{', '.join(map(str, READABLE_SCHEMA_VERSIONS))}",
            "re-run the experiment with this version (just run-all), or check out the commit that wrote it",
        )
