"""Lab processes, wherever they run: how the contract's verbs are called, a cell's processes started, reaped (wait4,
for the lab's own rusage) and accounted, and a cold-start cell's commands timed. What differs between the host and a
container is one small protocol, Place (place.py): how a command is launched there, stopped, moved between CPUs,
and what to do when it ended. HostBackend (host.py) and DockerBackend (docker.py) are Places that run lab processes
this way; a handed-over process (the paired-pipelined design) goes through handover.py, and reaping.py reaps them all.
"""

from __future__ import annotations

import json
import shlex
import subprocess
import time
from typing import IO, Any

from harness.backends.base import CellRequest, CellRun, last_engine_error, last_lab_error
from harness.backends.cold_timing import read_peak_rss, time_cold
from harness.backends.handover import Handover
from harness.backends.place import Launch, Place, contract_mounts
from harness.backends.reaping import StartedProcess, lab_cpu_s, open_log, wait_all
from harness.config.lab.labs import LabSpec
from harness.host.noise import process_usage, read_cpu_times
from harness.model.cells import ColdSettings
from harness.model.cpusets import parse_cpuset
from harness.model.defaults import PROBE_TIMEOUT_S
from harness.model.errors import CellError, HarnessError
from harness.model.outcomes import ProcessUsage


class LabProcesses:
    """The lab contract's verbs as processes started through a Place."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.handover = Handover(place)

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
        started = [self.handover.hand_over(r) if r.warm_cpuset else self._start(r) for r in requests]
        timeout_s = max(r.timeout_s for r in requests)
        ended = wait_all(started, timeout_s, self._stop, self.handover.poll)
        runs = [self._finish(process) for process in ended]
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

    def _stop(self, process: StartedProcess) -> None:
        """Stops a process that ran over its time."""
        self.terminate(process.launch, process.popen)

    def terminate(self, launch: Launch, popen: subprocess.Popen) -> None:
        """Stops a command started from `launch`, there and here."""
        self.place.stop(launch)
        popen.kill()

    def stop_warming(self) -> None:
        """Stops a process warming ahead of its turn (handover.py)."""
        self.handover.stop_warming("the run went on to other work")

    def run_cold(self, request: CellRequest) -> CellRun:
        self.stop_warming()  # nothing runs beside a cold start
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

    def _start(self, request: CellRequest) -> StartedProcess:
        launch = self.place.launch_cell(request, [*request.lab.command, *request.lab_args()], account_cpu=True)
        log = open_log(request, launch)
        cpus = parse_cpuset(request.cpuset)
        before = read_cpu_times(cpus)
        popen = subprocess.Popen(launch.argv, cwd=launch.cwd, env=launch.env, stdout=log, stderr=subprocess.STDOUT)
        return StartedProcess(request, popen, log, cpus, before, time.monotonic(), launch)

    def _finish(self, process: StartedProcess) -> CellRun:
        request = process.request
        usage = process_usage(
            process.wall_s,
            lab_cpu_s(process),
            process.before,
            process.after,
            None if process.rusage is None else int(process.rusage.ru_nivcsw),
            process.warm_line_s,
            process.cpu_before_s if process.warm_line_s is not None else None,
            process.lab_warm_s,
        )
        self.place.ended(process.launch, failed=process.timed_out or process.returncode != 0 or bool(process.failure))
        if process.timed_out:
            return CellRun(
                usage, CellError(f"cell timed out after {request.timeout_s:.0f} s", f"see {request.log_path}")
            )
        if process.returncode != 0 or process.failure:
            output = request.log_path.read_text(errors="replace")
            found = last_lab_error(output)
            detail = (
                found[0]
                if found
                else last_engine_error(output) or process.failure or f"lab exited with code {process.returncode}"
            )
            return CellRun(
                usage,
                CellError(detail, (found[1] + "; " if found and found[1] else "") + f"full log: {request.log_path}"),
            )
        return CellRun(usage)


class ProcessBackend:
    """The Backend verbs that run lab processes (call, run_cells, run_cold), for a backend that is their Place."""

    measures = True
    in_containers = False

    def __init__(self) -> None:
        self.processes = LabProcesses(self)  # type: ignore[arg-type]  # a subclass is the Place
        self.host_id: str | None = None

    def engine_description(self) -> str | None:
        """No container engine (a container backend says its own)."""
        return None

    def image_tag(self, lab: LabSpec) -> str | None:
        """No image (a container backend names its own)."""
        return None

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> Any:
        """A contract verb's JSON answer (env, list, verify …)."""
        return self.processes.call(lab, args, switches)

    def run_cells(self, requests: list[CellRequest]) -> list[CellRun]:
        """Starts the requests' processes together, waits for all, and says how each went."""
        return self.processes.run_cells(requests)

    def stop_warming(self) -> None:
        """Stops a process warming ahead of its turn, if any."""
        self.processes.stop_warming()

    def run_cold(self, request: CellRequest) -> CellRun:
        """A cold-start cell: its commands timed by hyperfine (harness/backends/cold_timing.py)."""
        return self.processes.run_cold(request)

    def terminate(self, launch: Launch, popen: subprocess.Popen) -> None:
        """Stops a command started from `launch` (the conformance runner's hung parsers)."""
        self.processes.terminate(launch, popen)
