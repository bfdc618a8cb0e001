"""What a process of the paired verb's `--handoff 1` says on its standard output, read by the hand-over
(handover.py): `jsonlab-started PID` as it starts (its id in its own PID namespace: the harness may move it to the lab's
CPU before it is warm), then `jsonlab-warm PID cpu-ms=N` once warm (the CPU time it used before it was moved). What is
read is bounded (WARM_LINE_BYTES); a process that says anything else first, or ends, is not handed over."""

from __future__ import annotations

import os
import select
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import IO, TYPE_CHECKING

from harness.backends.base import CellRequest

if TYPE_CHECKING:
    from harness.backends.place import Launch

#: The paired verb's line once warm (lab/dotnet PairedVerb.WarmLine), then its process id and `cpu-ms=N`.
WARM_LINE = "jsonlab-warm"
#: The paired verb's first line with `--handoff 1` (PairedVerb.StartedLine), then its process id.
STARTED_LINE = "jsonlab-started"
#: At most this much standard output is read while waiting for the warm line.
WARM_LINE_BYTES = 4096


@dataclass(frozen=True)
class WarmLine:
    """What a warm process said: its id (in its own PID namespace) and the CPU seconds it had used (before its move,
    when it was moved before it was warm)."""

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


def parse_started_line(text: str) -> int | None:
    """The process id of `jsonlab-started 4242`; None for anything else."""
    words = text.split()
    if len(words) != 2 or words[0] != STARTED_LINE or not words[1].isdigit() or len(words[1]) > 10:
        return None
    return int(words[1])


@dataclass
class Warming:
    """A process started on its warm CPU set, not handed over yet."""

    request: CellRequest  # as the schedule asked for it, without its `then`
    launch: Launch
    popen: subprocess.Popen
    log: IO[str]
    launched: float
    said: bytes = b""  # its standard output read so far after its started line, before its warm line was taken
    heard: float | None = None  # when its first line after the started line was read whole
    started_pid: int | None = None  # the id its started line gave


def _take_started(warm: Warming) -> None:
    """Takes the started line off the head of what the process said, once it is whole."""
    if warm.started_pid is None and b"\n" in warm.said:
        first, _, rest = warm.said.partition(b"\n")
        pid = parse_started_line(first.decode("utf-8", errors="replace"))
        if pid is not None:
            warm.started_pid, warm.said = pid, rest


def _has_line(warm: Warming) -> bool:
    return b"\n" in warm.said or len(warm.said) >= WARM_LINE_BYTES


def _read(warm: Warming, wait_s: float) -> bool | None:
    """Reads what is there within `wait_s`: True when something was read, False when nothing came, None at its end."""
    assert warm.popen.stdout is not None
    fd = warm.popen.stdout.fileno()
    if not select.select([fd], [], [], max(0.0, wait_s))[0]:
        return False
    chunk = os.read(fd, WARM_LINE_BYTES - len(warm.said))
    if not chunk:
        return None
    warm.said += chunk
    _take_started(warm)
    if b"\n" in warm.said and warm.heard is None:
        warm.heard = time.monotonic()
    return True


def heard(warm: Warming) -> bool:
    """Without waiting: True once the process has said a line after its started line, ended, or filled what is
    read of it (its started line is taken meanwhile)."""
    while not _has_line(warm):
        got = _read(warm, 0)
        if got is None:
            return True
        if not got:
            return False
    return True


def await_warm(warm: Warming, timeout_s: float, started: Callable[[int], None] | None = None) -> WarmLine | None:
    """The process's warm line; None when it ends, runs over its time or says something else first (what it said
    goes to its log). `started`, when given, is called once with the process's id as soon as its started line is
    read, if that comes before its warm line."""
    told = False
    while True:
        if started is not None and not told and warm.started_pid is not None and not _has_line(warm):
            told = True
            started(warm.started_pid)
        if _has_line(warm):
            break
        got = _read(warm, warm.launched + timeout_s - time.monotonic())
        if got is None:
            break
        if not got:
            return None
    warm.heard = warm.heard or time.monotonic()
    first, _, rest = warm.said.partition(b"\n")
    line = parse_warm_line(first.decode("utf-8", errors="replace"))
    if line is None or rest:
        warm.log.write(warm.said.decode("utf-8", errors="replace"))
    if line is None and warm.said:
        warm.log.write(f"\n# its first line was not the paired verb's '{WARM_LINE} PID cpu-ms=N': not handed over\n")
    warm.log.flush()
    return line
