"""Host backend: each cell is a fresh lab process on this host, pinned with taskset; a duet starts two at once."""

from __future__ import annotations

import os
import pathlib

from harness.backends.base import CellRequest
from harness.backends.place import Launch, Mounts, request_mounts
from harness.backends.processes import ProcessBackend
from harness.builds.lab_build import build_lab
from harness.config.lab.labs import LabSpec
from harness.model.folder.environment_record import BuildWhere
from harness.model.folder.stored_names import HOST
from harness.planning.pinning import move_process, taskset_prefix


class HostBackend(ProcessBackend):
    """Runs the lab's command directly, pinned with taskset; ISA switches go in the process environment.

    It is the Place (harness/backends/processes.py) its lab processes are launched in: `argv` is the command as it
    would run here (the lab's command with the contract's arguments, or hyperfine around it), `mounts` the host folders
    it reads and writes (here they are where they are)."""

    name = HOST
    emulates = False  # this machine's own processes, of its own architecture

    def __init__(self, switch_names: set[str]) -> None:
        # Every variable any ISA table knows is removed from the inherited environment first, so a
        # DOTNET_Enable* left in the user's shell cannot silently change the 'native' level.
        self._switch_names = switch_names
        super().__init__()

    def environment(self, lab: LabSpec, switches: dict[str, str]) -> dict[str, str]:
        """The child environment: inherited, minus stray ISA switches and run-setting variables (a DOTNET_gcServer left
        in the user's shell must not change cells that asked for no setting), plus the lab's own settings and this
        cell's switches (its run settings' and its level's)."""
        stray = self._switch_names | lab.settings_variables
        env = {k: v for k, v in os.environ.items() if k not in stray}
        env.update(lab.environment)
        env.update(switches)
        env.setdefault("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        return env

    def launch(
        self, lab: LabSpec, argv: list[str], switches: dict[str, str], cpuset: str | None, mounts: Mounts
    ) -> Launch:
        """The command pinned to `cpuset` (None: unpinned), in the lab's folder, with its environment."""
        return Launch(
            [*(taskset_prefix(cpuset) if cpuset else []), *argv], self.environment(lab, switches), lab.directory
        )

    def launch_cell(self, request: CellRequest, argv: list[str], account_cpu: bool = False) -> Launch:
        """One of a cell's processes with the cell's switches, CPU set (its warm CPU set first, when it has one) and
        folders (its CPU time: wait4's rusage)."""
        cpuset = request.warm_cpuset or request.cpuset
        return self.launch(request.lab, argv, request.switches, cpuset, request_mounts(request))

    def move(self, launch: Launch, pid: int, cpuset: str) -> None:
        """`taskset -a -p`: every thread of the process onto `cpuset`."""
        move_process([], pid, cpuset)

    def stop(self, launch: Launch) -> None:
        """Nothing runs elsewhere: killing the child stops it."""

    def ended(self, launch: Launch, failed: bool) -> None:
        """Nothing to tidy up."""

    def close(self) -> None:
        """Stops a process warming ahead, if any."""
        self.stop_warming()

    def identity(self, lab: LabSpec) -> BuildWhere:
        """What every row of this lab build records about where it ran."""
        return {"backend": self.name}

    def details(self, lab: LabSpec) -> BuildWhere:
        """What environment.json records about where this lab build runs."""
        return self.identity(lab)

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        build_lab(lab, log_path)

    def build_all(self, labs: dict[str, LabSpec], log_dir: pathlib.Path) -> None:
        for name, lab in labs.items():
            self.build(lab, log_dir / f"build-{name}.log")
