"""The lab's own Docker engine for one run: started when no engine answers and this user may start one, stopped after.

The product's promise is every variant in its own pinned container. A fresh machine has the engine package (set-up
installs docker.io) but no daemon running, so a run with the automatic backend starts the lab's own engine
(containers/dockerd.sh: no bridge network, no iptables rules) when none answers, this user is root and dockerd is
installed, and stops it when the run ends, only if it started it. Where it cannot (not root, no dockerd, a daemon that
does not come up, or one that answers but cannot unpack an image layer, as inside an unprivileged container), the run
says so on its first lines, runs on the host backend, and names
the command that changes it.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tarfile
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

from harness.containers.engine import docker, find_engine
from harness.model.defaults import REPO_ROOT

DOCKERD_SCRIPT = REPO_ROOT / "containers" / "dockerd.sh"
#: Seconds `dockerd.sh start` may take (it waits up to 60 s for the daemon to answer).
START_TIMEOUT_S = 90
#: The image an empty layer is imported as, to see that the engine can unpack layers (removed again at once).
PROBE_IMAGE = "jsonlab-probe/empty-layer:latest"
#: `--own-engine` choices: start one when none answers and it may (auto), or never.
OWN_ENGINE_CHOICES = ("auto", "never")


@dataclass(frozen=True)
class EngineStart:
    """What the run did about an engine: started its own (and must stop it), or why it did not."""

    started: bool
    note: str


def _run_script(action: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        ["bash", str(DOCKERD_SCRIPT), action], capture_output=True, text=True, timeout=START_TIMEOUT_S
    )


def _can_make_images() -> str:
    """'' when the engine can unpack an image layer (an empty one, imported and removed again), else its error: inside
    an
    unprivileged container dockerd starts and answers, then fails at the first layer ('Error creating mount namespace').
    """
    with tempfile.NamedTemporaryFile(suffix=".tar") as empty:
        with tarfile.open(empty.name, "w"):
            pass
        done = docker("import", empty.name, PROBE_IMAGE, timeout=START_TIMEOUT_S)
    if done.returncode != 0:
        return (done.stderr.strip().splitlines() or ["docker import failed"])[-1]
    docker("image", "rm", PROBE_IMAGE, timeout=START_TIMEOUT_S)
    return ""


def start_if_needed(
    backend: str,
    choice: str = "auto",
    *,
    is_root: Callable[[], bool] = lambda: os.geteuid() == 0,
    which: Callable[[str], str | None] = shutil.which,
    engine_answers: Callable[[], bool] = lambda: find_engine(probe_builder=False)[0] is not None,
    script: Callable[[str], subprocess.CompletedProcess[str]] = _run_script,
    can_make_images: Callable[[], str] = _can_make_images,
) -> EngineStart:
    """Starts the lab's own engine when the backend is automatic, none answers and this user may; else says why not."""
    if backend != "auto" or choice == "never" or engine_answers():
        return EngineStart(False, "")
    fix = "start one (`just docker-up`, as root) or pass --backend host to say so"
    if which("dockerd") is None:
        return EngineStart(
            False,
            "no Docker engine answers and dockerd is not installed (apt-get install docker.io): running on the host; "
            f"{fix}",
        )
    if not is_root():
        return EngineStart(
            False, f"no Docker engine answers and starting the lab's own needs root: running on the host; {fix}"
        )
    try:
        done = script("start")
    except subprocess.TimeoutExpired:
        return EngineStart(
            False,
            f"the lab's own Docker engine did not start within {START_TIMEOUT_S} s (results/dockerd/dockerd.log): "
            "running on the host",
        )
    if done.returncode != 0 or not engine_answers():
        reason = (done.stderr.strip().splitlines() or ["no answer"])[-1]
        return EngineStart(False, f"the lab's own Docker engine could not start ({reason}): running on the host; {fix}")
    problem = can_make_images()
    if problem:
        script("stop")
        return EngineStart(
            False,
            f"the lab's own Docker engine started but cannot make images here ({problem}; as inside an "
            f"unprivileged container): stopped it, running on the host; {fix}",
        )
    return EngineStart(True, "started the lab's own Docker engine (containers/dockerd.sh; stopped when the run ends)")


@contextmanager
def engine_for_run(
    backend: str,
    choice: str = "auto",
    report: Callable[[str], None] = print,
    script: Callable[[str], subprocess.CompletedProcess[str]] = _run_script,
    **probes,
) -> Iterator[EngineStart]:
    """start_if_needed() for the length of a run: what was started is stopped at the end, however the run ends."""
    start = start_if_needed(backend, choice, script=script, **probes)
    if start.note:
        report(start.note)
    try:
        yield start
    finally:
        if start.started:
            done = script("stop")
            report(
                "stopped the lab's own Docker engine"
                if done.returncode == 0
                else f"could not stop the lab's own Docker engine: {done.stderr.strip()}"
            )
