"""Where lab commands run, as one small protocol: a Place launches a command there (a cell's process with its CPU set
and folders), stops it, moves it between CPUs, and hears when it ended; the folders a command reads and writes
(Mounts) and how it is launched (Launch). HostBackend (host.py) and DockerBackend (docker.py) are the Places;
processes.py runs the contract's verbs through them.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Protocol

from harness.backends.base import CellRequest
from harness.config.lab.labs import LabSpec
from harness.containers.isolation import DATASETS_MOUNT, OUT_MOUNT

#: Host folders a command reads or writes, by host path: (path inside the lab's environment, read-only).
Mounts = dict[pathlib.Path, tuple[str, bool]]

#: The lab contract's path options: where the datasets are (read) and where raw output goes (written).
CONTRACT_PATH_OPTIONS = {"--datasets": True, "--out": False}


def contract_mounts(args: list[str]) -> Mounts:
    """The folders named by the contract's path options in `args` (a container backend maps them to mounts)."""
    targets = {"--datasets": DATASETS_MOUNT, "--out": OUT_MOUNT}
    return {
        pathlib.Path(value): (targets[option], CONTRACT_PATH_OPTIONS[option])
        for option, value in zip(args, args[1:])
        if option in CONTRACT_PATH_OPTIONS
    }


def request_mounts(request: CellRequest) -> Mounts:
    """A cell's folders: its datasets (read-only) and its output folder (written; hyperfine.json and rss.json go there
    too)."""
    return {request.datasets_dir: (DATASETS_MOUNT, True), request.out_dir: (OUT_MOUNT, False)}


@dataclass(frozen=True)
class Launch:
    """How to start one command: its argv, environment (None: inherit) and working directory."""

    argv: list[str]
    env: dict[str, str] | None
    cwd: pathlib.Path | None
    container: str | None = None  # the long-lived container the command execs into (DockerBackend)
    cpu_times_file: pathlib.Path | None = None  # where the command's shell leaves the lab's CPU times (`times`), when
    # the harness's own child is not the lab (a docker CLI): else wait4's rusage of the child is the lab's


class Place(Protocol):
    """Where lab commands run: this host (HostBackend) or a container (DockerBackend)."""

    def launch(
        self, lab: LabSpec, argv: list[str], switches: dict[str, str], cpuset: str | None, mounts: Mounts
    ) -> Launch:
        """A command (`argv` as it would run here) with these ISA switches, pinned to `cpuset` (None: unpinned), with
        `mounts` the folders it reads and writes."""
        ...

    def launch_cell(self, request: CellRequest, argv: list[str], account_cpu: bool = False) -> Launch:
        """One of a cell's processes, with the cell's switches, CPU set and folders; with `account_cpu`, set up so the
        lab's own CPU time can be read afterwards (Launch.cpu_times_file when wait4's rusage cannot tell it)."""
        ...

    def stop(self, launch: Launch) -> None:
        """A command ran over its time: stop what it started there (the harness kills its own child itself)."""
        ...

    def ended(self, launch: Launch, failed: bool) -> None:
        """A cell's process has ended (`failed`: with an error or a timeout)."""
        ...

    def move(self, launch: Launch, pid: int, cpuset: str) -> None:
        """Moves every thread of process `pid` (as it sees its own id) of a command started from `launch` onto
        `cpuset` (the pipelined design's hand-over, handover.py); raises HarnessError when it cannot."""
        ...
