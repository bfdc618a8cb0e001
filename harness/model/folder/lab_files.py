"""A lab's JSON files in a run folder's raw/ as typed records: how every one is read (UTF-8 JSON, errors that say what
to do), the record base that checks a file's keys against its fields, and process.json, what a lab process writes of
itself (docs/lab-contract.md: its start-up; for a paired process its joint warm-up, bursts, collections, compilations
during its rounds and hand-over). The normalizers read these when a process ends (harness/normalize/cell_files.py holds
a cell's own three files on the same base) and the analysis reads process.json again from a run folder handed to it:
a missing key, a value of another type or a file that does not parse is a CellError naming the file and the key, never
a bare KeyError or a traceback."""

from __future__ import annotations

import dataclasses
import json
import pathlib
from dataclasses import dataclass, field
from typing import Any, TypeVar

from harness.model.errors import CellError
from harness.model.folder.field_types import field_hints, shown, type_problem

_File = TypeVar("_File", bound="LabFile")

#: The hint of a lab file that does not fit its record.
LAB_FILE_HINT = "the lab wrote a file the contract does not describe (docs/lab-contract.md); see the cell's log"


def read_lab_json(path: pathlib.Path) -> Any:
    """A JSON file a lab left in a cell or process folder; CellError when it is missing or does not parse."""
    try:
        return json.loads(path.read_bytes().decode("utf-8"))
    except FileNotFoundError as e:
        raise CellError(
            f"the lab left no {path.name} in {path.parent}", "see the cell's log; the lab stopped before writing it"
        ) from e
    except (OSError, ValueError, RecursionError) as e:  # not UTF-8, not JSON, or nested past the parser's depth
        raise CellError(f"{path} is not valid UTF-8 JSON: {str(e)[:200]}", "see the cell's log") from e


class LabFile:
    """from_json for a frozen dataclass read from one of a lab's JSON files: unknown keys are the lab's own."""

    FILE = ""
    #: A field whose value is one of a few words, and those words.
    CHOICES: dict[str, tuple[str, ...]] = {}

    @classmethod
    def from_json(cls: type[_File], data: Any, path: pathlib.Path) -> _File:
        """The record from the file's JSON value; CellError naming the file and the key when it does not fit."""
        if not isinstance(data, dict):
            raise CellError(f"{path} is not a JSON object", LAB_FILE_HINT)
        hints = field_hints(cls)
        values = {}
        for f in dataclasses.fields(cls):  # type: ignore[arg-type]
            if f.name not in data:
                if f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING:
                    raise CellError(
                        f"{path} has no {f.name!r} (its keys: {', '.join(sorted(data))[:300] or 'none'})", LAB_FILE_HINT
                    )
                continue
            why = type_problem(data[f.name], hints[f.name])
            choices = cls.CHOICES.get(f.name)
            if not why and choices and data[f.name] not in choices:
                why = f"not one of {', '.join(choices)}"
            if why:
                raise CellError(f"{path}: {f.name!r} is {shown(data[f.name])}, {why}", LAB_FILE_HINT)
            values[f.name] = data[f.name]
        return cls(**values)


@dataclass(frozen=True)
class ProcessRecord(LabFile):
    """process.json: one lab process's account of itself, in its folder (a paired process's: above its cells'). Every
    key is optional (a native process has no start-up to give); the fields are the keys the lab's readers use."""

    FILE = "process.json"

    cells: list[str] = field(default_factory=list)  # the cells it measured
    start_to_main_ms: float | None = None  # runtime start to the lab's main
    benchmark_dot_net_ms: float | None = None  # the `run` verb: BenchmarkDotNet's whole run
    joint_prewarm_ms: float | None = None  # the paired verb: the joint warm-up of its members
    joint_prewarm_compilations: int | None = None  # JIT compilations during it
    bursts_ms: float | None = None  # the timed bursts of every member (the measured samples)
    collections_between_bursts_ms: float | None = None
    fresh_inputs_ms: float | None = None  # making fresh inputs between rounds (a profile with fresh_input_rounds)
    rounds_compilations: list[int] | None = None  # compilations counted at each round's start, then at the end
    handover_wait_ms: float | None = None  # the paired-pipelined design: the wait, warm, for the hand-over
    rewarm_ms: float | None = None  # and the re-warm passes on the lab's CPU after it
    rounds: int | None = None  # the rounds it played: the job's burst_rounds and its extra rounds
    extra_rounds: int | None = None  # the paired verb's --extend-rounds: rounds played while the next process warmed
    extra_rounds_ms: float | None = None  # and their wall time (bursts and collections)


def read_process(folder: pathlib.Path) -> ProcessRecord | None:
    """The process.json in `folder` as its record; None when the process wrote none (it is optional)."""
    path = folder / ProcessRecord.FILE
    if not path.is_file():
        return None
    return ProcessRecord.from_json(read_lab_json(path), path)


def read_run_process(run_dir: pathlib.Path, folder: str) -> ProcessRecord | None:
    """The process.json of a process folder a result row names (relative to its run folder, as `raw_path` is); a
    folder outside the run folder is a CellError (a row is untrusted too)."""
    path = (run_dir / folder).resolve()
    if not path.is_relative_to(run_dir.resolve()):
        raise CellError(
            f"a row of {run_dir} names a process folder outside it: {shown(folder)}",
            "restore the run folder from a copy: its rows name folders under raw/",
        )
    return read_process(path)
