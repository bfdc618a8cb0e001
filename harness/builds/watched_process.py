"""A long-running tool (an image build, mmdebstrap, a lab's restore or build), watched: its output goes to its log, and
a line reaches the user when it starts, at least every `every_s` seconds while it runs (elapsed time, how many of its
images are done, its latest output line) and when it ends."""

from __future__ import annotations

import os
import pathlib
import re
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: Seconds between two lines while a build runs.
HEARTBEAT_S = 30.0
#: BuildKit's line of a step's digest ("#12 sha256:…"), which says nothing to a reader.
_DIGEST = re.compile(r"^#\d+ sha256:")


def say_on_stderr(line: str) -> None:
    """Says a line of progress on stderr, at once."""
    print(line, file=sys.stderr, flush=True)


def elapsed(seconds: float) -> str:
    minutes, rest = divmod(int(seconds), 60)
    return f"{minutes}m{rest:02d}s" if minutes else f"{rest}s"


@dataclass(frozen=True)
class WatchedBuild:
    """One build command and what to say about it: `label` names it in every line ("image 2/9 jsonlab/dotnet:8.0.0"),
    `tags` are the images it makes (a line counts those done by BuildKit's "naming to" lines in the log)."""

    command: list[str]
    label: str
    tags: Sequence[str]
    done: str = "built"  # the word for a success: "built after 2m10s"


def _progress(log_path: pathlib.Path, start: int, tags: Sequence[str]) -> tuple[int, str]:
    """How many of `tags` the log (from byte `start`) says are written, and its latest line."""
    with log_path.open("rb") as log:
        log.seek(start)
        text = log.read().decode(errors="replace")
    done = sum(1 for tag in tags if re.search(rf"naming to (docker\.io/)?{re.escape(tag)}\b", text))
    lines = [" ".join(line.split()) for line in text.splitlines() if line.strip() and not _DIGEST.match(line)]
    return done, (lines[-1][:110] if lines else "")


def run_watched(
    build: WatchedBuild,
    log_path: pathlib.Path,
    env: dict[str, str],
    cwd: pathlib.Path,
    timeout_s: float,
    say: Callable[[str], None],
    every_s: float = HEARTBEAT_S,
) -> tuple[int | None, float]:
    """Runs the build into its log (appended), saying how it goes; returns its exit code (None: it took over
    `timeout_s` and was killed) and its seconds."""
    started = time.monotonic()
    with log_path.open("a") as log:
        log.write(f"$ {' '.join(build.command)}\n")
        log.flush()
        offset = log.tell()
        say(f"{build.label}: building (log {log_path})")
        process = subprocess.Popen(
            build.command, stdout=log, stderr=subprocess.STDOUT, env={**os.environ, **env}, cwd=cwd
        )
        while True:
            try:
                code: int | None = process.wait(timeout=every_s)
                break
            except subprocess.TimeoutExpired:
                seconds = time.monotonic() - started
                if seconds > timeout_s:
                    process.kill()
                    process.wait()
                    code = None
                    break
                done, last = _progress(log_path, offset, build.tags)
                count = f", {done} of {len(build.tags)} images done" if len(build.tags) > 1 else ""
                say(f"{build.label}: {elapsed(seconds)} so far{count}" + (f"; last: {last}" if last else ""))
    seconds = time.monotonic() - started
    outcome = build.done if code == 0 else ("stopped" if code is None else f"failed (exit {code})")
    say(f"{build.label}: {outcome} after {elapsed(seconds)}")
    return code, seconds
