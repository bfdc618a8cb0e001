"""The paired-pipelined design's hand-over (harness/planning/designs.py): a paired process is started on the warm CPU
(the harness's) with the paired verb's `--handoff 1`; it verifies and warms there, says `jsonlab-warm PID cpu-ms=N` on
its standard output, and waits. Once the process before it on the lab's CPU has ended, every thread of it is moved to
the lab's CPU (Place.move), it is told `go`, re-warms a few passes there and runs its bursts; meanwhile the next
process (the request's `then`, the schedule's guess) starts warming on the warm CPU. A guess the schedule then does
not take is stopped, its log kept as `….discarded.log`, its raw folder removed: no row ever comes from it.

With the job's `extend_rounds` the process on the lab's CPU plays extra rounds after its `burst_rounds` until it is
told `stop` (its standard input stays open after `go`): the harness says it once the process warming behind it is warm
(or none is warming, or that one ended), polled while it waits for the lab's processes (Handover.poll). The
lab's CPU then samples the process it has instead of waiting for the next; the process is still one replicate.

A handed-over process's clock starts at its move: its wall time, its CPU's counters and its own CPU time (less the
`cpu-ms` its warm line gave) are the lab CPU's, so the run's accounting and the disturbance check read the lab CPU
alone. Its time-out still counts from its launch. The warm line is read from a pipe, bounded (WARM_LINE_BYTES), and a
process that ends or says anything else first is reaped as a failed process with its log.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
import select
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from harness.backends.base import CellRequest
from harness.backends.reaping import StartedProcess, open_log
from harness.host.noise import read_cpu_times
from harness.model.cpusets import parse_cpuset

if TYPE_CHECKING:
    from harness.backends.place import Launch, Place

#: The paired verb's line once warm (lab/dotnet PairedVerb.WarmLine), then its process id and `cpu-ms=N`.
WARM_LINE = "jsonlab-warm"
#: At most this much standard output is read while waiting for the warm line.
WARM_LINE_BYTES = 4096


@dataclass(frozen=True)
class WarmLine:
    """What a warm process said: its id (in its own PID namespace) and the CPU seconds it had used."""

    pid: int
    cpu_s: float


def parse_warm_line(text: str) -> WarmLine | None:
    """`jsonlab-warm 4242 cpu-ms=1830` as a WarmLine; None for anything else."""
    words = text.split()
    if len(words) != 3 or words[0] != WARM_LINE or not words[1].isdigit() or not words[2].startswith("cpu-ms="):
        return None
    number = words[2][len("cpu-ms=") :]
    if not number.replace(".", "", 1).isdigit() or len(number) > 15:
        return None
    return WarmLine(int(words[1]), float(number) / 1000)


@dataclass
class Warming:
    """A process started on its warm CPU set, not handed over yet."""

    request: CellRequest  # as the schedule asked for it, without its `then`
    launch: Launch
    popen: subprocess.Popen
    log: IO[str]
    launched: float
    said: bytes = b""  # its standard output read so far, before its warm line was taken
    heard: float | None = None  # when its first line was read whole


class Handover:
    """Hands warm processes to the lab's CPU, one warming ahead at most (LabProcesses runs what it returns)."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.warming: Warming | None = None
        self.extending: IO[bytes] | None = None  # the standard input of a process playing extra rounds until `stop`

    def hand_over(self, request: CellRequest) -> StartedProcess:
        """The request's process, warmed (ahead, or now) and moved to its CPU set, its clock started; the request's
        `then` starting to warm behind it."""
        self._say_stop()  # the process before it has ended; it is told in any case
        warm = self._take(request)
        line = self._await_warm(warm, request.timeout_s)
        if line is None:  # it ended, ran over its time or said something else: reaped as a failed process
            _close(warm.popen.stdin)  # a lab still waiting ends with the paired verb's own error
            return StartedProcess(
                warm.request,
                warm.popen,
                warm.log,
                (),
                None,
                warm.launched,
                warm.launch,
                launched=warm.launched,
                failure=f"the process never said it was warm ('{WARM_LINE} PID cpu-ms=N'), so it was not handed over",
            )
        try:
            self.place.move(warm.launch, line.pid, warm.request.cpuset)
        except BaseException:
            self.place.stop(warm.launch)
            warm.popen.kill()
            raise
        # the clock starts once the move is done: the move's own command (a `docker exec`, 50 ms or more) is not the
        # lab's, and the warm process does nothing until it is told `go`
        cpus = parse_cpuset(warm.request.cpuset)
        before = read_cpu_times(cpus)
        moved = time.monotonic()
        assert warm.popen.stdin is not None
        try:
            warm.popen.stdin.write(b"go\n")
            warm.popen.stdin.flush()
        except OSError:
            pass  # it ended meanwhile: reaped below, its log says why
        if warm.request.job.extend_rounds:
            self.extending = warm.popen.stdin
        else:
            _close(warm.popen.stdin)
        after = request.then() if request.then is not None else None
        if after is not None:
            self.warming = self._start(after)
        self.poll()
        return StartedProcess(
            warm.request,
            warm.popen,
            warm.log,
            cpus,
            before,
            moved,
            warm.launch,
            warm.launched,
            line.cpu_s,
            warm_line_s=(warm.heard or moved) - warm.launched,
        )

    def poll(self) -> None:
        """Reads what the process warming ahead has said so far, without waiting (kept for its hand-over, its warm line
        timed as it comes), and tells the process playing extra rounds to stop once that one is warm, has ended or
        said something else, or none is warming."""
        if self.warming is None or self._heard(self.warming):
            self._say_stop()

    def _say_stop(self) -> None:
        stream, self.extending = self.extending, None
        if stream is None:
            return
        try:
            stream.write(b"stop\n")
            stream.flush()
        except OSError:
            pass  # it has ended
        _close(stream)

    @staticmethod
    def _heard(warm: Warming) -> bool:
        """True once the warming process has said a line, ended or filled what is read of it."""
        assert warm.popen.stdout is not None
        fd = warm.popen.stdout.fileno()
        while b"\n" not in warm.said and len(warm.said) < WARM_LINE_BYTES:
            if not select.select([fd], [], [], 0)[0]:
                return False
            chunk = os.read(fd, WARM_LINE_BYTES - len(warm.said))
            if not chunk:
                return True
            warm.said += chunk
            if b"\n" in warm.said:
                warm.heard = time.monotonic()
        return True

    def stop_warming(self, why: str) -> None:
        """Stops the process warming ahead, if any: its log kept beside the others as `….discarded.log`, its raw
        folder removed."""
        warm, self.warming = self.warming, None
        self._say_stop()  # nothing is warming behind the process on the lab's CPU now
        if warm is None:
            return
        self.place.stop(warm.launch)
        warm.popen.kill()
        warm.popen.wait()
        _close(warm.popen.stdin)
        _close(warm.popen.stdout)
        warm.log.write(f"# stopped before its hand-over: {why}; no row comes from this process\n")
        warm.log.close()
        log = warm.request.log_path
        log.replace(discarded_name(log))
        shutil.rmtree(warm.request.out_dir, ignore_errors=True)

    def _take(self, request: CellRequest) -> Warming:
        """The process warming for this request, else one started for it now (another one warming is stopped)."""
        wanted = dataclasses.replace(request, then=None)
        if self.warming is not None and self.warming.request == wanted:
            warm, self.warming = self.warming, None
            return warm
        self.stop_warming("the run's next process was another one")
        return self._start(wanted)

    def _start(self, request: CellRequest) -> Warming:
        request = dataclasses.replace(request, then=None)
        launch = self.place.launch_cell(request, [*request.lab.command, *request.lab_args()], account_cpu=True)
        log = open_log(request, launch, f"# warms on CPU {request.warm_cpuset}, then handed to CPU {request.cpuset}\n")
        popen = subprocess.Popen(
            launch.argv,
            cwd=launch.cwd,
            env=launch.env,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
        )
        return Warming(request, launch, popen, log, time.monotonic())

    def _await_warm(self, warm: Warming, timeout_s: float) -> WarmLine | None:
        """The process's warm line; None when it ends, runs over its time or says something else first (what it said
        goes to its log)."""
        assert warm.popen.stdout is not None
        fd = warm.popen.stdout.fileno()
        said = warm.said
        while b"\n" not in said and len(said) < WARM_LINE_BYTES:
            left = warm.launched + timeout_s - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                return None
            chunk = os.read(fd, WARM_LINE_BYTES - len(said))
            if not chunk:
                break
            said += chunk
        warm.heard = warm.heard or time.monotonic()
        first, _, rest = said.partition(b"\n")
        line = parse_warm_line(first.decode("utf-8", errors="replace"))
        if line is None or rest:
            warm.log.write(said.decode("utf-8", errors="replace"))
        if line is None and said:
            warm.log.write(
                f"\n# its first line was not the paired verb's '{WARM_LINE} PID cpu-ms=N': not handed over\n"
            )
        warm.log.flush()
        return line


def _close(stream: IO[bytes] | None) -> None:
    if stream is not None:
        try:
            stream.close()
        except OSError:
            pass  # a pipe to a process that has gone


def discarded_name(log: pathlib.Path) -> pathlib.Path:
    """Where a stopped process's log goes: `NAME.discarded.log`, or `NAME.discarded-2.log`, -3 … when the same
    process was guessed and stopped before (each stopped process keeps its own log)."""
    stem = log.name.removesuffix(".log")
    candidate, n = log.with_name(f"{stem}.discarded.log"), 1
    while candidate.exists():
        n += 1
        candidate = log.with_name(f"{stem}.discarded-{n}.log")
    return candidate
