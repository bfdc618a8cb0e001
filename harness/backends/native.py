"""Native backend: each cell is a fresh lab process on this host, pinned with taskset; a duet starts two at once."""

from __future__ import annotations

import json
import os
import pathlib
import resource
import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import IO, Any, Callable

from harness.backends.base import CellRequest, CellRun, last_lab_error
from harness.session.build import build_lab
from harness.containers.isolation import DATASETS_MOUNT, OUT_MOUNT
from harness.config.defaults import PROBE_TIMEOUT_S
from harness.model.errors import CellError, HarnessError
from harness.config.labs import LabSpec
from harness.host.noise import CpuTimes, process_usage, read_cpu_times, rusage_cpu_s
from harness.model.outcomes import ProcessUsage
from harness.model.cells import ColdSettings
from harness.planning.pinning import parse_cpuset, taskset_prefix
from harness.backends.cold_timing import time_cold


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


class NativeBackend:
    """Runs the lab's command directly, pinned with taskset; ISA switches go in the process environment.

    Every command goes through `launch`, which a backend that runs elsewhere (DockerBackend) overrides: `argv` is the
    command as it would run here (the lab's command with the contract's arguments, or hyperfine around it), `mounts`
    the host folders it reads and writes."""

    name = "native"

    def __init__(self, switch_names: set[str]) -> None:
        # Every variable any ISA table knows is removed from the inherited environment first, so a
        # DOTNET_Enable* left in the user's shell cannot silently change the 'native' level.
        self._switch_names = switch_names

    def environment(self, lab: LabSpec, switches: dict[str, str]) -> dict[str, str]:
        """The child environment: inherited, minus stray ISA switches, plus the lab's own settings and this level's
        switches."""
        env = {k: v for k, v in os.environ.items() if k not in self._switch_names}
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

    def launch_cell(self, request: CellRequest, argv: list[str]) -> Launch:
        """How to start one of a cell's processes (`argv` as it would run here) with the cell's switches, CPU set and
        folders."""
        return self.launch(request.lab, argv, request.switches, request.cpuset, request_mounts(request))

    def close(self) -> None:
        """Releases what the backend holds between cells (nothing here)."""

    def identity(self, lab: LabSpec) -> dict[str, Any]:
        """What every row of this lab build records about where it ran."""
        return {"backend": self.name}

    def details(self, lab: LabSpec) -> dict[str, Any]:
        """What environment.json records about where this lab build runs."""
        return self.identity(lab)

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        build_lab(lab, log_path)

    def build_all(self, labs: dict[str, LabSpec], log_dir: pathlib.Path) -> None:
        for name, lab in labs.items():
            self.build(lab, log_dir / f"build-{name}.log")

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> Any:
        launch = self.launch(lab, [*lab.command, *args], switches, None, contract_mounts(args))
        try:
            done = subprocess.run(
                launch.argv, cwd=launch.cwd, env=launch.env, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S
            )
        except subprocess.TimeoutExpired as e:
            raise HarnessError(
                f"lab '{lab.name}' did not answer `{' '.join(args)}` within {PROBE_TIMEOUT_S} s",
                "run the command by hand to see where it hangs",
            ) from e
        except FileNotFoundError as e:
            raise HarnessError(f"cannot start lab '{lab.name}': {e}", "build it first (just build)") from e
        if done.returncode != 0:
            message = (done.stderr.strip().splitlines() or ["no output"])[-1]
            hint = "build the lab (just build) and retry"
            found = last_lab_error(done.stderr)
            if found:
                message, hint = found[0], found[1] or hint
            raise HarnessError(f"lab '{lab.name}' `{' '.join(args)}` failed: {message}", hint)
        return json.loads(done.stdout)

    def run_cells(self, requests: list[CellRequest]) -> list[CellRun]:
        started = [self._start(request) for request in requests]
        return [self._finish(process) for process in _wait_all(started, max(r.timeout_s for r in requests), self._stop)]

    def _stop(self, process: _Process) -> None:
        """Stops a process that ran over its time."""
        self.terminate(process.launch or Launch(list(process.popen.args), None, None), process.popen)

    def terminate(self, launch: Launch, popen: subprocess.Popen) -> None:
        """Stops a command started from `launch` (and, elsewhere, what it started there)."""
        popen.kill()

    def run_cold(self, request: CellRequest) -> CellRun:
        settings = request.cold or ColdSettings()
        once = [*request.lab.command, *request.once_args()]
        prepare = [*once, "--prepare-only", "true"]
        started = time.monotonic()

        def run(argv: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
            launch = self.launch_cell(request, argv)
            log.write(f"$ {shlex.join(launch.argv)}\n")
            log.flush()
            try:
                done = subprocess.run(
                    launch.argv, cwd=launch.cwd, env=launch.env, capture_output=True, text=True, timeout=timeout
                )
            except subprocess.TimeoutExpired:
                self.abandon(launch)
                raise
            log.write(done.stdout + done.stderr)
            return done

        def failed(error: str, hint: str) -> CellRun:
            return CellRun(
                ProcessUsage(wall_s=time.monotonic() - started),
                CellError(error, f"{hint}; full log: {request.log_path}"),
            )

        with request.log_path.open("w") as log:
            log.write(f"# switches: {json.dumps(request.switches)}\n")
            try:
                failure = time_cold(request, settings, once, prepare, run, failed)
            except subprocess.TimeoutExpired as e:
                failure = failed(f"a cold-start command ran over its {e.timeout:.0f} s", "see the log; the run goes on")
        return failure or CellRun(ProcessUsage(wall_s=time.monotonic() - started))

    def abandon(self, launch: Launch) -> None:
        """A command that ran over its time was killed (a backend that runs it elsewhere stops it there too)."""

    def cell_command(self, request: CellRequest) -> list[str]:
        """The command of one steady-state cell process (a backend may wrap it)."""
        return [*request.lab.command, *request.lab_args()]

    def lab_cpu(self, process: _Process) -> float | None:
        """The lab's own CPU seconds in a finished cell process: wait4's rusage of the child, which is the lab here."""
        return None if process.rusage is None else rusage_cpu_s(process.rusage)

    def _start(self, request: CellRequest) -> _Process:
        launch = self.launch_cell(request, self.cell_command(request))
        log = request.log_path.open("w")
        log.write(f"$ {shlex.join(launch.argv)}\n# switches: {json.dumps(request.switches)}\n")
        log.flush()
        cpus = parse_cpuset(request.cpuset)
        before = read_cpu_times(cpus)
        popen = subprocess.Popen(launch.argv, cwd=launch.cwd, env=launch.env, stdout=log, stderr=subprocess.STDOUT)
        return _Process(request, popen, log, cpus, before, time.monotonic(), launch)

    def _finish(self, process: _Process) -> CellRun:
        request = process.request
        usage = process_usage(
            process.wall_s,
            self.lab_cpu(process),
            process.before,
            process.after,
            None if process.rusage is None else int(process.rusage.ru_nivcsw),
        )
        if process.timed_out:
            return CellRun(
                usage, CellError(f"cell timed out after {request.timeout_s:.0f} s", f"see {request.log_path}")
            )
        if process.returncode != 0:
            found = last_lab_error(request.log_path.read_text(errors="replace"))
            detail = found[0] if found else f"lab exited with code {process.returncode}"
            return CellRun(
                usage,
                CellError(detail, (found[1] + "; " if found and found[1] else "") + f"full log: {request.log_path}"),
            )
        return CellRun(usage)


@dataclass
class _Process:
    """A started cell process and, once it has ended, how."""

    request: CellRequest
    popen: subprocess.Popen
    log: IO[str]
    cpus: tuple[int, ...]
    before: CpuTimes | None
    started: float
    launch: Launch | None = None  # how it was started (a container backend stops it through this)
    wall_s: float = 0.0
    returncode: int | None = None
    rusage: resource.struct_rusage | None = None
    after: CpuTimes | None = None
    timed_out: bool = False


def _wait_all(processes: list[_Process], timeout_s: float, stop: Callable[[_Process], None]) -> list[_Process]:
    """Reaps every process with wait4 (for its own rusage), reading its CPUs' counters the moment it ends;
    kills what is still running after timeout_s. Polls every 20 ms from the harness's own CPU."""
    pending = list(processes)
    while pending:
        for process in list(pending):
            pid, status, rusage = os.wait4(process.popen.pid, os.WNOHANG)
            if pid == 0:
                if time.monotonic() - process.started > timeout_s and not process.timed_out:
                    stop(process)
                    process.timed_out = True
                continue
            process.after = read_cpu_times(process.cpus)
            process.wall_s = time.monotonic() - process.started
            process.returncode = os.waitstatus_to_exitcode(status)
            process.popen.returncode = process.returncode
            process.rusage = rusage
            process.log.close()
            pending.remove(process)
        if pending:
            time.sleep(0.02)
    return processes
