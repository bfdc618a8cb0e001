"""One measurement per CPU: a run holds an exclusive lock on each CPU it pins its lab to, for its whole life.

Two measurements on one CPU disturb each other without either noticing much: both pin their lab processes there, each
runs at half speed in bursts, and their reports carry the damage as noise. The lock is `flock` on one file per CPU in
a well-known folder (/run/lock/jsonlab, else the temporary folder; JSONLAB_LOCK_DIR overrides it): the kernel drops
it when the holder dies, so there is no stale lock to clean up. The holder writes its run id, PID and start time into
the file, so a second run can say who has the CPU. Commands that do not measure (plan, report, compare, check) never
take it; runs on the fake backend measure nothing and do not either.
"""

from __future__ import annotations

import contextlib
import datetime as _dt
import fcntl
import json
import os
import pathlib
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator

from harness.model.errors import HarnessError

#: The environment variable that moves the lock folder (tests; several users sharing a machine).
LOCK_DIR_VARIABLE = "JSONLAB_LOCK_DIR"


class CpuBusyError(HarnessError):
    """Another measurement holds a CPU this run wants."""


def lock_dir() -> pathlib.Path:
    """The folder of the per-CPU lock files."""
    if os.environ.get(LOCK_DIR_VARIABLE):
        return pathlib.Path(os.environ[LOCK_DIR_VARIABLE])
    run_lock = pathlib.Path("/run/lock")
    if run_lock.is_dir() and os.access(run_lock, os.W_OK):
        return run_lock / "jsonlab"
    return pathlib.Path(tempfile.gettempdir()) / "jsonlab-locks"


def _holder(path: pathlib.Path) -> str:
    """'run 2026-11-25T06-41-00Z (PID 1234, since 06:41:00 UTC)' from a lock file, or what is known."""
    try:
        data = json.loads(path.read_text() or "{}")
    except (OSError, ValueError):
        data = {}
    if not data:
        return "another process"
    return f"run {data.get('run_id', '?')} (PID {data.get('pid', '?')}, since {data.get('started_at', '?')})"


@contextlib.contextmanager
def cpus_locked(
    cpus: Iterable[int | str],
    run_id: str,
    wait: bool = False,
    notify: Callable[[str], None] = lambda _: None,
) -> Iterator[pathlib.Path]:
    """Holds the lock of every CPU in `cpus` inside the block; raises CpuBusyError at once when one is held and `wait`
    is False, else waits for it (saying for whom through `notify`)."""
    folder = lock_dir()
    folder.mkdir(parents=True, exist_ok=True)
    with contextlib.ExitStack() as stack:
        for cpu in sorted({int(c) for c in cpus}):
            path = folder / f"cpu{cpu}.lock"
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o666)
            stack.callback(os.close, fd)
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                holder = _holder(path)
                if not wait:
                    raise CpuBusyError(
                        f"CPU {cpu} is being measured by {holder}",
                        "two measurements on one CPU disturb each other: wait for it to finish, or pass --wait to "
                        "queue behind it",
                    ) from None
                notify(f"CPU {cpu} is being measured by {holder}; waiting for it (--wait)")
                started = time.monotonic()
                fcntl.flock(fd, fcntl.LOCK_EX)
                notify(f"CPU {cpu} is free after {time.monotonic() - started:.0f} s; starting")
            os.ftruncate(fd, 0)
            stamp = _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC")
            os.pwrite(fd, json.dumps({"run_id": run_id, "pid": os.getpid(), "started_at": stamp}).encode(), 0)
        yield folder
