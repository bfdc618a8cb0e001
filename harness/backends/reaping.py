"""A started lab process and its reaping: wait4 for the lab's own rusage, its CPUs' counters read the moment it ends,
a kill once it runs over its time, and the lab's own CPU seconds (LabProcesses in processes.py starts them; the
pipelined design's hand-over, handover.py, starts its clock later than its launch)."""

from __future__ import annotations

import json
import os
import resource
import shlex
import subprocess
import time
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING, Callable

from harness.backends.base import CellRequest
from harness.host.noise import CpuTimes, parse_shell_times, read_cpu_times, rusage_cpu_s

if TYPE_CHECKING:
    from harness.backends.place import Launch

#: What is kept of a handed-over process's standard output after its warm line (its log gets it when it ends).
STDOUT_KEPT_BYTES = 65536


@dataclass
class StartedProcess:
    """A started cell process and, once it has ended, how. Its clock (`started`, the CPU counters `before`, the CPU
    time `cpu_before_s` it had used) starts at its launch, or for a handed-over process at its move to the lab's CPU;
    its time-out counts from `launched`."""

    request: CellRequest
    popen: subprocess.Popen
    log: IO[str]
    cpus: tuple[int, ...]
    before: CpuTimes | None
    started: float
    launch: Launch  # how it was started (a container backend stops it through this, and reads its CPU time)
    launched: float | None = None  # None: at `started`
    cpu_before_s: float = 0.0
    wall_s: float = 0.0
    returncode: int | None = None
    rusage: resource.struct_rusage | None = None
    after: CpuTimes | None = None
    timed_out: bool = False
    failure: str | None = None  # why it failed whatever its exit code (a hand-over that never came: handover.py)
    warm_line_s: float | None = None  # handed over: from its launch to its warm line (handover.py)
    lab_warm_s: float | None = None  # handed over: of its warm-up, the time on the lab's CPU (moved before warm)

    def over_time(self, timeout_s: float) -> bool:
        """True once the process has run longer than `timeout_s` since its launch."""
        return time.monotonic() - (self.started if self.launched is None else self.launched) > timeout_s


def open_log(request: CellRequest, launch: Launch, note: str = "") -> IO[str]:
    """A cell process's log, opened for it: its command line, its switches and `note` (a line, or nothing)."""
    log = request.log_path.open("w")
    log.write(f"$ {shlex.join(launch.argv)}\n# switches: {json.dumps(request.switches)}\n{note}")
    log.flush()
    return log


def lab_cpu_s(process: StartedProcess) -> float | None:
    """The lab's own CPU seconds in a finished cell process since its clock started: what its shell wrote where the
    harness's child is not the lab (None when it was killed before), else wait4's rusage of the child; less what a
    handed-over process used before its move."""
    times_file = process.launch.cpu_times_file
    if times_file is not None:
        try:
            total = parse_shell_times(times_file.read_text())
        except OSError:
            return None
    else:
        total = None if process.rusage is None else rusage_cpu_s(process.rusage)
    return None if total is None else max(0.0, total - process.cpu_before_s)


def wait_all(
    processes: list[StartedProcess],
    timeout_s: float,
    stop: Callable[[StartedProcess], None],
    poll: Callable[[], None] = lambda: None,
) -> list[StartedProcess]:
    """Reaps every process with wait4 (for its own rusage), reading its CPUs' counters the moment it ends;
    kills what is still running after timeout_s. Polls every 20 ms from the harness's own CPU, calling `poll` each
    time (the hand-over's: tell a process playing extra rounds to stop once the next one is warm)."""
    pending = list(processes)
    while pending:
        poll()
        for process in list(pending):
            pid, status, rusage = os.wait4(process.popen.pid, os.WNOHANG)
            if pid == 0:
                if process.over_time(timeout_s) and not process.timed_out:
                    stop(process)
                    process.timed_out = True
                continue
            process.after = read_cpu_times(process.cpus)
            process.wall_s = time.monotonic() - process.started
            process.returncode = os.waitstatus_to_exitcode(status)
            process.popen.returncode = process.returncode
            process.rusage = rusage
            _keep_stdout(process)
            process.log.close()
            pending.remove(process)
        if pending:
            time.sleep(0.02)
    return processes


def _keep_stdout(process: StartedProcess) -> None:
    """A handed-over process's standard output after its warm line (a pipe, not its log), into its log: what is there
    now, bounded."""
    stream = process.popen.stdout
    if stream is None:
        return
    try:
        os.set_blocking(stream.fileno(), False)
        data = stream.read(STDOUT_KEPT_BYTES) or b""
    except (OSError, ValueError):
        data = b""
    finally:
        stream.close()
    if data:
        process.log.write(data.decode("utf-8", errors="replace"))
