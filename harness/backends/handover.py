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

With the job's `warm_on_lab_cpu`, a process that is not warm yet when the lab's CPU is free (the process before it has
ended) is moved there at once, as soon as it has said its id (`jsonlab-started PID`), and told `moved`: it finishes
warming on the lab's CPU, which would otherwise wait, while the process after it starts warming on the warm CPU at once.
Its warm line then says the CPU time it used before the move.

A handed-over process's clock starts at its move: its wall time, its CPU's counters and its own CPU time (less the
`cpu-ms` its warm line gave) are the lab CPU's, so the run's accounting and the disturbance check read the lab CPU
alone. Its time-out still counts from its launch. The warm line is read from a pipe, bounded (WARM_LINE_BYTES), and a
process that ends or says anything else first is reaped as a failed process with its log.
"""

from __future__ import annotations

import dataclasses
import pathlib
import shutil
import subprocess
import time
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from harness.backends.base import CellRequest
from harness.backends.reaping import StartedProcess, open_log
from harness.backends.warm_lines import WARM_LINE, Warming, await_warm, heard
from harness.host.noise import CpuTimes, read_cpu_times
from harness.model.cpusets import parse_cpuset

if TYPE_CHECKING:
    from harness.backends.place import Place


@dataclass(frozen=True)
class _Moved:
    """Where and when a process was moved to the lab's CPU: its clock starts there."""

    cpus: tuple[int, ...]
    before: CpuTimes | None
    at: float


class Handover:
    """Hands warm processes to the lab's CPU, one warming ahead at most (LabProcesses runs what it returns)."""

    def __init__(self, place: Place) -> None:
        self.place = place
        self.warming: Warming | None = None
        self.extending: IO[bytes] | None = None  # the standard input of a process playing extra rounds until `stop`

    def hand_over(self, request: CellRequest) -> StartedProcess:
        """The request's process, warmed (ahead, or now) and moved to its CPU set, its clock started; the request's
        `then` starting to warm behind it (as soon as the process is moved)."""
        self._say_stop()  # the process before it has ended; it is told in any case
        warm = self._take(request)
        moved: list[_Moved] = []

        def finish_on_lab_cpu(pid: int) -> None:
            """The lab's CPU is free and the process not warm yet: it finishes warming there, the next one starts."""
            moved.append(self._move(warm, pid))
            _say(warm.popen.stdin, b"moved\n")
            self._warm_next(request)

        early = finish_on_lab_cpu if warm.request.job.warm_on_lab_cpu else None
        line = await_warm(warm, request.timeout_s, early)
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
        # the clock starts once the move is done: the move's own command (a `docker exec`, 50 ms or more) is not the
        # lab's, and the warm process does nothing until it is told `go`
        where = moved[0] if moved else self._move(warm, line.pid)
        _say(warm.popen.stdin, b"go\n")
        if warm.request.job.extend_rounds:
            self.extending = warm.popen.stdin
        else:
            _close(warm.popen.stdin)
        if not moved:  # moved before it was warm: the next one started warming then
            self._warm_next(request)
        self.poll()
        return StartedProcess(
            warm.request,
            warm.popen,
            warm.log,
            where.cpus,
            where.before,
            where.at,
            warm.launch,
            warm.launched,
            line.cpu_s,
            warm_line_s=(warm.heard or where.at) - warm.launched,
            lab_warm_s=max(0.0, (warm.heard or where.at) - where.at),
        )

    def _move(self, warm: Warming, pid: int) -> _Moved:
        """Every thread of the process moved to its CPU set (stopped and killed when that fails); the lab CPU's
        counters read once it is there."""
        try:
            self.place.move(warm.launch, pid, warm.request.cpuset)
        except BaseException:
            self.place.stop(warm.launch)
            warm.popen.kill()
            raise
        cpus = parse_cpuset(warm.request.cpuset)
        return _Moved(cpus, read_cpu_times(cpus), time.monotonic())

    def _warm_next(self, request: CellRequest) -> None:
        """The request's `then` (the schedule's guess of the next process) started warming."""
        if request.then is None:
            return
        after = request.then()
        if after is not None:
            self.warming = self._start(after)

    def poll(self) -> None:
        """Reads what the process warming ahead has said so far, without waiting (kept for its hand-over, its warm line
        timed as it comes), and tells the process playing extra rounds to stop once that one is warm, has ended or
        said something else, or none is warming."""
        if self.warming is None or heard(self.warming):
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


def _say(stream: IO[bytes] | None, text: bytes) -> None:
    """A line to the process on its standard input; nothing when it has ended (it is reaped, its log says why)."""
    assert stream is not None
    try:
        stream.write(text)
        stream.flush()
    except OSError:
        pass


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
