"""The Backend protocol shared by every backend, and the request for one cell."""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Any, Protocol

from harness.labs import LabSpec
from harness.records import Cell, JobSettings


@dataclass(frozen=True)
class CellRequest:
    """Everything a backend needs to run one cell."""

    lab: LabSpec
    cell: Cell
    datasets_dir: pathlib.Path
    out_dir: pathlib.Path
    log_path: pathlib.Path
    job: JobSettings
    switches: dict[str, str]
    cpuset: str
    timeout_s: float

    def lab_args(self) -> list[str]:
        """The `run` verb's arguments, per the lab contract."""
        c = self.cell
        return ["run", "--datasets", str(self.datasets_dir), "--variant", c.variant, "--dataset", c.dataset,
                "--operation", c.operation, "--out", str(self.out_dir), *self.job.to_args()]


class Backend(Protocol):
    """Builds labs and runs their verbs. `call` answers env/list with parsed JSON; `run_cell` leaves the raw output in
    request.out_dir and the log at request.log_path, raising CellError when the cell failed."""

    name: str

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        """Makes the lab runnable (compile, image build); raises BuildError with advice."""
        ...

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> Any:
        """Runs a JSON-printing verb (env, list) and returns its parsed output."""
        ...

    def run_cell(self, request: CellRequest) -> None:
        """Runs one cell to completion."""
        ...
