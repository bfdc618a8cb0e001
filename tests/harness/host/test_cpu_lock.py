"""One measurement per CPU: a second run that wants a CPU another holds stops at once, naming the holder, or queues
with --wait; the kernel frees the lock when its holder ends."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import threading
import time

import pytest

from harness.host.cpu_lock import LOCK_DIR_VARIABLE, CpuBusyError, cpus_locked
from tests.conftest import REPO


@pytest.fixture(autouse=True)
def private_locks(tmp_path, monkeypatch):
    monkeypatch.setenv(LOCK_DIR_VARIABLE, str(tmp_path / "locks"))


def test_a_second_holder_of_a_cpu_is_refused_with_the_first_ones_run_and_pid():
    with cpus_locked([5], "run-a"):
        with pytest.raises(
            CpuBusyError, match=rf"CPU 5 is being measured by run run-a \(PID {os.getpid()}, since "
        ) as e:
            with cpus_locked([4, 5], "run-b"):
                pass
        assert "--wait" in e.value.hint
    with cpus_locked([4, 5], "run-b"):  # released with its holder
        pass


def test_other_cpus_are_free_to_take():
    with cpus_locked([5], "run-a"), cpus_locked([6], "run-b"):
        pass


def test_wait_queues_behind_the_holder_and_says_so():
    said: list[str] = []
    held = threading.Event()

    def hold() -> None:
        with cpus_locked([7], "run-a"):
            held.set()
            time.sleep(0.5)

    holder = threading.Thread(target=hold)
    holder.start()
    held.wait(5)
    started = time.monotonic()
    with cpus_locked([7], "run-b", wait=True, notify=said.append):
        waited = time.monotonic() - started
    holder.join()
    assert waited >= 0.3
    assert said[0].startswith("CPU 7 is being measured by run run-a") and said[-1].startswith("CPU 7 is free after")


@pytest.mark.skipif(shutil.which("dotnet") is None, reason="the run plans the real .NET lab")
def test_a_second_run_on_a_held_cpu_stops_at_once_naming_the_first(tmp_path):
    """Every CPU of this machine is held (whichever the run would pin its lab to): `harness run` stops in seconds,
    exit 2, before building or measuring anything."""
    cpus = sorted(os.sched_getaffinity(0))
    with cpus_locked(cpus, "2026-11-25T06-41-00Z"):
        started = time.monotonic()
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "harness",
                "run",
                "--profile",
                "smoke",
                "--backend",
                "host",
                "--results-dir",
                str(tmp_path / "results"),
            ],
            cwd=REPO,
            env={**os.environ},
            capture_output=True,
            text=True,
            timeout=120,
        )
    assert done.returncode == 2, done.stderr
    assert "is being measured by run 2026-11-25T06-41-00Z (PID" in done.stderr and "hint:" in done.stderr
    assert time.monotonic() - started < 60
    assert not (tmp_path / "results").exists() or not any((tmp_path / "results").iterdir())
