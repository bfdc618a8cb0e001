"""The lab contract's three files in every measured cell folder as typed records: cell.json (what ran), env.json (what
the measured process reported of itself) and verification.json (whether its output was right). They are what the
harness reads of a lab, whatever its language and raw format (docs/lab-contract.md). A lab's files are untrusted: a
missing key, a value of another type, or a raw report outside the cell folder is a CellError naming the file and the
key (the run adds the lab), never a bare KeyError."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

from harness.model.arch import IsaFlags
from harness.model.errors import CellError
from harness.model.folder.field_types import shown
from harness.model.folder.lab_files import LabFile
from harness.model.folder.records import VERIFICATION_STATUSES
from harness.model.json_value import JsonObject
from harness.model.outcomes import Verification
from harness.model.places import SettingsReadback
from harness.normalize.common import read_json


class LabFailure(CellError):
    """A cell the lab itself marked failed (cell.json `"status": "failed"`), with the lab's own error and hint."""


@dataclass(frozen=True)
class LabEnv(LabFile):
    """env.json: the measured process's runtime, architecture, CPU set, ISA flags and run settings as it read them."""

    FILE = "env.json"

    language: str
    runtime: str
    runtime_version: str
    arch: str
    isa: IsaFlags = field(default_factory=dict)
    runtime_switches: dict[str, str] = field(default_factory=dict)  # a row's runtime_switches: variables' texts
    cpus_allowed: str | None = None  # a row's cpuset_effective (taskset syntax, as /proc/self/status lists it)
    settings: SettingsReadback = field(default_factory=dict)
    libraries: dict[str, str | None] = field(default_factory=dict)


@dataclass(frozen=True)
class CellRecord(LabFile):
    """cell.json: what ran (library, version, payload form, the dataset's digest), its raw report and phase timings."""

    FILE = "cell.json"

    library: str
    library_version: str
    dataset_sha256: str
    payload_form: str
    raw_report: str
    model_type: str | None = None
    timings_ms: dict[str, float | None] = field(default_factory=dict)  # phase → ms, each a row's time field
    prewarm_compilations: int | None = None
    invocation_count: int | None = None


@dataclass(frozen=True)
class VerificationRecord(LabFile):
    """verification.json: the verdict of the cell's output against the reference reading of its dataset."""

    FILE = "verification.json"
    CHOICES = {"status": VERIFICATION_STATUSES}

    status: str
    message: str
    payload_bytes: int | None = None
    mismatch_count: int | None = None
    round_trip: str | None = None

    def verification(self) -> Verification:
        return Verification(self.status, self.message, self.mismatch_count, self.round_trip)


@dataclass(frozen=True)
class CellFiles:
    """A measured cell folder's three contract files, read and checked."""

    directory: pathlib.Path
    cell: CellRecord
    env: LabEnv
    verification: VerificationRecord

    def raw_report(self) -> JsonObject:
        """The raw report cell.json names: a JSON object in a file inside the cell folder."""
        path = pathlib.PurePosixPath(self.cell.raw_report)
        if path.is_absolute() or ".." in path.parts or not path.parts:
            raise CellError(
                f"{self.directory / CellRecord.FILE} names a raw report outside the cell folder: {shown(str(path))}",
                "a lab writes its raw report inside the cell folder it was given (docs/lab-contract.md)",
            )
        report = read_json(self.directory / path)
        if not isinstance(report, dict):
            raise CellError(f"{self.directory / path} is not a JSON object", "see the cell's log")
        return report

    def base_fields(self, engine_version: str) -> JsonObject:
        """The row fields every raw format fills the same way from the three files."""
        cell, env = self.cell, self.env
        return {
            "language": env.language,
            "runtime": env.runtime,
            "runtime_version": env.runtime_version,
            # every runtime variable the process saw (ISA switches, tiering, invariant globalization on 3.1)
            "runtime_switches": dict(env.runtime_switches),
            "engine_version": engine_version,
            "library": cell.library,
            "library_version": cell.library_version,
            "dataset_sha256": cell.dataset_sha256,
            "payload_form": cell.payload_form,
            "model_type": cell.model_type,
            "arch": env.arch,
            "cpuset_effective": env.cpus_allowed,
            "payload_bytes": self.verification.payload_bytes or None,  # 0 or absent: not known
            "raw_path": cell.raw_report,
        }


def read_cell(cell_dir: pathlib.Path) -> CellFiles:
    """A measured cell's cell.json, env.json and verification.json; a cell the lab marked failed is a CellError with
    the lab's own error and hint."""
    cell = read_json(cell_dir / CellRecord.FILE)
    if isinstance(cell, dict) and cell.get("status") == "failed":
        raise LabFailure(
            str(cell.get("error") or "the lab marked the cell failed"), str(cell.get("hint") or "see the cell's log")
        )
    return CellFiles(
        cell_dir,
        CellRecord.from_json(cell, cell_dir / CellRecord.FILE),
        LabEnv.from_json(read_json(cell_dir / LabEnv.FILE), cell_dir / LabEnv.FILE),
        VerificationRecord.from_json(read_json(cell_dir / VerificationRecord.FILE), cell_dir / VerificationRecord.FILE),
    )
