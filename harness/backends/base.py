"""The Backend protocol shared by every backend, and the request for one cell."""

from __future__ import annotations

import dataclasses
import pathlib
from dataclasses import dataclass
from typing import Callable, Protocol

from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell, ColdSettings, JobSettings
from harness.model.errors import CellError
from harness.model.folder.environment_record import BuildWhere
from harness.model.json_value import JsonValue
from harness.model.outcomes import ProcessUsage


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
    cold: ColdSettings | None = None  # set for a cold-start cell
    raw_root: pathlib.Path | None = (
        None  # the run's raw-output folder, which holds out_dir (a long-lived container mounts it once)
    )
    # Paired design: every cell this one process measures, each with the folder (inside out_dir) its files go to, and
    # the
    # seed of its burst order; empty: the process measures `cell` alone.
    members: tuple[tuple[Cell, pathlib.Path], ...] = ()
    seed: int = 1
    # A process of several groups (paired-shared): the sizes of the consecutive runs of members that form one group,
    # whose bursts the lab runs back to back in every round; empty: the members are one group
    member_blocks: tuple[int, ...] = ()
    # A steady cell of one process: this many fresh `once --report-rss` processes after it, for its peak RSS
    peak_rss_runs: int = 0
    # The paired-pipelined design (harness/backends/handover.py): the CPU set the process starts, verifies and warms
    # on before it is handed to `cpuset` for its bursts (None: it runs on `cpuset` throughout), and the process to
    # start warming there once this one is handed over (the schedule's guess at the next one, made then, on the
    # harness's CPU, while this one runs)
    warm_cpuset: str | None = None
    then: Callable[[], CellRequest | None] | None = dataclasses.field(default=None, compare=False, repr=False)

    def cell_args(self, verb: str) -> list[str]:
        """A verb on the cell's variant × dataset × operation (`once`, `verify`, `run`), with the datasets folder."""
        c = self.cell
        return [
            verb,
            "--datasets",
            str(self.datasets_dir),
            "--variant",
            c.variant,
            "--dataset",
            c.dataset,
            "--operation",
            c.operation,
        ]

    def once_args(self) -> list[str]:
        """The `once` verb's arguments: one cold call of the cell's operation."""
        return self.cell_args("once")

    def lab_args(self) -> list[str]:
        """The `run` verb's arguments, per the lab contract; the `paired` verb's for a process of several members."""
        if self.members:
            members = [
                arg
                for cell, folder in self.members
                for arg in ("--member", f"{cell.variant}/{cell.dataset}/{cell.operation}={folder}")
            ]
            return [
                "paired",
                "--datasets",
                str(self.datasets_dir),
                "--out",
                str(self.out_dir),
                *members,
                "--seed",
                str(self.seed),
                *(["--member-blocks", ",".join(map(str, self.member_blocks))] if self.member_blocks else []),
                *(self.job.handover_args() if self.warm_cpuset else []),
                *self.job.to_args(),
            ]
        if self.cell.shot is not None:
            return [*self.cell_args("shot"), "--out", str(self.out_dir), *self.cell.shot.to_args()]
        return [*self.cell_args("run"), "--out", str(self.out_dir), *self.job.to_args()]


@dataclass(frozen=True)
class CellRun:
    """How one cell's process ended: its usage, and the error when it failed."""

    usage: ProcessUsage
    error: CellError | None = None


class Backend(Protocol):
    """Builds labs and runs their verbs. `call` answers env/list with parsed JSON; `run_cells` starts one process
    per request at the same time (one request, or a duet's two), leaves each raw output in request.out_dir and
    its log at request.log_path, and returns one CellRun per request, in order."""

    name: str
    #: The host of a run over several hosts (harness/session/hosts_run.py) whose rows this backend's processes make;
    #: None: this machine.
    host_id: str | None

    # -- capabilities: what the run asks of a backend instead of probing it for attributes ------------------------

    @property
    def measures(self) -> bool:
        """True when its processes take CPU time on the lab's CPUs, so a run takes their locks (a fake that replays
        captured output takes none)."""
        ...

    @property
    def emulates(self) -> bool:
        """True when its lab builds run under emulation (another architecture's images): functional checks only."""
        ...

    @property
    def in_containers(self) -> bool:
        """True when its lab builds run in images (whose facts a run over several hosts asks the images for)."""
        ...

    def engine_description(self) -> str | None:
        """The container engine it runs through, as environment.json records it; None without one."""
        ...

    def image_tag(self, lab: LabSpec) -> str | None:
        """The image a lab build runs in; None when it runs on this machine."""
        ...

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        """Makes the lab runnable (compile, image build); raises BuildError with advice."""
        ...

    def build_all(self, labs: dict[str, LabSpec], log_dir: pathlib.Path) -> None:
        """Builds every lab build of a run (a container backend builds all missing images together); logs in log_dir."""
        ...

    def identity(self, lab: LabSpec) -> BuildWhere:
        """Row fields saying where this lab build runs: {"backend": name} and, in containers, the image and its id."""
        ...

    def details(self, lab: LabSpec) -> BuildWhere:
        """What environment.json records about where this lab build runs (the identity, and an image's labels)."""
        ...

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> JsonValue:
        """Runs a JSON-printing verb (env, list, verify) and returns its parsed output: JSON of the lab's own shape,
        which each caller narrows where it reads it."""
        ...

    def run_cells(self, requests: list[CellRequest]) -> list[CellRun]:
        """Runs the cells to completion, all started together (a request with a warm CPU set: handed over to its CPU
        set once warm, and its `then` started warming; harness/backends/handover.py)."""
        ...

    def stop_warming(self) -> None:
        """Ends a process warming ahead of its turn, if any (before work on the lab's CPUs that is not a handed-over
        process: a calibration, a cold start, the end of the run)."""
        ...

    def close(self) -> None:
        """Releases what the backend keeps between cells (a container backend's long-lived containers); called once the
        run ends."""
        ...

    def run_cold(self, request: CellRequest) -> CellRun:
        """Times a cold-start cell as whole processes: leaves hyperfine.json (the `once` command and the same with
        --prepare-only) and rss.json (peak RSS per extra run) in request.out_dir, its log at request.log_path."""
        ...


def last_lab_error(output: str) -> tuple[str, str] | None:
    """The lab's own 'error:' / 'hint:' lines, if it printed them (the lab contract's error format)."""
    error = hint = None
    for line in output.splitlines():
        if line.startswith("error: "):
            error = line[len("error: ") :]
        elif line.startswith("hint: "):
            hint = line[len("hint: ") :]
    return (error, hint or "") if error else None


#: How the docker CLI says that it, not the lab, failed (an engine gone, a container that cannot start), compared in
#: lower case: an engine that stops during `docker exec` makes the CLI print "cannot connect to the Docker daemon. Is
#: 'docker daemon' running on this host?", one that was gone before it "Cannot connect to the Docker daemon at …".
ENGINE_ERROR_PREFIXES = ("docker: ", "error response from daemon: ", "cannot connect to the docker daemon")


def last_engine_error(output: str) -> str | None:
    """The container engine's own last error line in a process's output (its engine stopped mid-run, for example),
    so a failed row says why rather than an exit code."""
    found = [line.strip() for line in output.splitlines() if line.strip().lower().startswith(ENGINE_ERROR_PREFIXES)]
    return f"the container engine failed: {found[-1]}" if found else None
