"""Lab processes, wherever they run: how the contract's verbs are called, a cell's processes started, reaped (wait4,
for the lab's own rusage) and accounted, and a cold-start cell's commands timed. What differs between the host and a
container is one small protocol, Place: how a command is launched there, how it is stopped there, and what to do when
it ended. HostBackend (host.py) and DockerBackend (docker.py) are Places that run lab processes this way.
"""

from __future__ import annotations

import json
import os
import pathlib
import resource
import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import IO, Any, Callable, Protocol

from harness.backends.base import CellRequest, CellRun, last_engine_error, last_lab_error
from harness.backends.cold_timing import read_peak_rss, time_cold
from harness.config.labs import LabSpec
from harness.containers.isolation import DATASETS_MOUNT, OUT_MOUNT
from harness.host.noise import CpuTimes, parse_shell_times, process_usage, read_cpu_times, rusage_cpu_s
from harness.model.cells import ColdSettings
from harness.model.cpusets import parse_cpuset
from harness.model.defaults import PROBE_TIMEOUT_S
from harness.model.errors import CellError, HarnessError
from harness.model.outcomes import ProcessUsage

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


class LabProcesses:
    """The lab contract's verbs as processes started through a Place."""

    def __init__(self, place: Place) -> None:
        self.place = place

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> Any:
        launch = self.place.launch(lab, [*lab.command, *args], switches, None, contract_mounts(args))
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
        runs = [self._finish(process) for process in _wait_all(started, max(r.timeout_s for r in requests), self._stop)]
        # peak RSS after every timed process of the slot has ended, so no reading runs beside a measurement
        for request, run in zip(requests, runs):
            if run.error is None and request.peak_rss_runs and not request.members:
                self._peak_rss(request)
        return runs

    def _peak_rss(self, request: CellRequest) -> None:
        """A steady cell's peak-RSS runs (profile key peak_rss_runs), logged after its timed process; a failed
        reading leaves the cell's row without peak_rss_bytes and says why in the log, the timing stands."""
        with request.log_path.open("a") as log:
            try:
                error = read_peak_rss(
                    request,
                    request.peak_rss_runs,
                    [*request.lab.command, *request.once_args()],
                    lambda argv, timeout: self._run_logged(request, argv, timeout, log),
                )
            except subprocess.TimeoutExpired as e:
                error = f"a peak-RSS run ran over its {e.timeout:.0f} s"
            if error:
                log.write(f"# peak RSS not read: {error}\n")

    def _stop(self, process: _Process) -> None:
        """Stops a process that ran over its time."""
        self.terminate(process.launch, process.popen)

    def terminate(self, launch: Launch, popen: subprocess.Popen) -> None:
        """Stops a command started from `launch`, there and here."""
        self.place.stop(launch)
        popen.kill()

    def run_cold(self, request: CellRequest) -> CellRun:
        settings = request.cold or ColdSettings()
        once = [*request.lab.command, *request.once_args()]
        prepare = [*once, "--prepare-only", "true"]
        started = time.monotonic()

        def run(argv: list[str], timeout: float) -> subprocess.CompletedProcess[str]:
            return self._run_logged(request, argv, timeout, log)

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

    def _run_logged(
        self, request: CellRequest, argv: list[str], timeout: float, log: IO[str]
    ) -> subprocess.CompletedProcess[str]:
        """One command of a cell run to its end where the cell runs, with its command line and output in the log."""
        launch = self.place.launch_cell(request, argv)
        log.write(f"$ {shlex.join(launch.argv)}\n")
        log.flush()
        try:
            done = subprocess.run(
                launch.argv, cwd=launch.cwd, env=launch.env, capture_output=True, text=True, timeout=timeout
            )
        except subprocess.TimeoutExpired:
            self.place.stop(launch)
            raise
        log.write(done.stdout + done.stderr)
        return done

    def _start(self, request: CellRequest) -> _Process:
        launch = self.place.launch_cell(request, [*request.lab.command, *request.lab_args()], account_cpu=True)
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
            _lab_cpu(process),
            process.before,
            process.after,
            None if process.rusage is None else int(process.rusage.ru_nivcsw),
        )
        self.place.ended(process.launch, failed=process.timed_out or process.returncode != 0)
        if process.timed_out:
            return CellRun(
                usage, CellError(f"cell timed out after {request.timeout_s:.0f} s", f"see {request.log_path}")
            )
        if process.returncode != 0:
            output = request.log_path.read_text(errors="replace")
            found = last_lab_error(output)
            detail = found[0] if found else last_engine_error(output) or f"lab exited with code {process.returncode}"
            return CellRun(
                usage,
                CellError(detail, (found[1] + "; " if found and found[1] else "") + f"full log: {request.log_path}"),
            )
        return CellRun(usage)


def _lab_cpu(process: _Process) -> float | None:
    """The lab's own CPU seconds in a finished cell process: what its shell wrote where the harness's child is not the
    lab (None when it was killed before), else wait4's rusage of the child."""
    times_file = process.launch.cpu_times_file
    if times_file is not None:
        try:
            return parse_shell_times(times_file.read_text())
        except OSError:
            return None
    return None if process.rusage is None else rusage_cpu_s(process.rusage)


@dataclass
class _Process:
    """A started cell process and, once it has ended, how."""

    request: CellRequest
    popen: subprocess.Popen
    log: IO[str]
    cpus: tuple[int, ...]
    before: CpuTimes | None
    started: float
    launch: Launch  # how it was started (a container backend stops it through this, and reads its CPU time)
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


class ProcessBackend:
    """The Backend verbs that run lab processes (call, run_cells, run_cold), for a backend that is their Place."""

    def __init__(self) -> None:
        self.processes = LabProcesses(self)  # type: ignore[arg-type]  # a subclass is the Place

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> Any:
        """A contract verb's JSON answer (env, list, verify …)."""
        return self.processes.call(lab, args, switches)

    def run_cells(self, requests: list[CellRequest]) -> list[CellRun]:
        """Starts the requests' processes together, waits for all, and says how each went."""
        return self.processes.run_cells(requests)

    def run_cold(self, request: CellRequest) -> CellRun:
        """A cold-start cell: its commands timed by hyperfine (harness/backends/cold_timing.py)."""
        return self.processes.run_cold(request)

    def terminate(self, launch: Launch, popen: subprocess.Popen) -> None:
        """Stops a command started from `launch` (the conformance runner's hung parsers)."""
        self.processes.terminate(launch, popen)
