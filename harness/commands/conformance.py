"""`harness conformance`: every parser of a run's labs over JSONTestSuite, with the run's backend."""

from __future__ import annotations

import argparse
import contextlib
import pathlib
import sys
import time

from harness.backends import select_backend
from harness.commands.selection import split
from harness.config.isa import load_isa_table
from harness.config.lab.labs import find_lab, load_labs
from harness.containers.own_engine import engine_for_run
from harness.host.cpu_lock import cpus_locked
from harness.host.host_cpus import parse_cpulist
from harness.model.defaults import DATASETS_DIR
from harness.model.folder.run_records import CONFORMANCE
from harness.model.folder.store import RunStore
from harness.model.folder.stored_names import HOST, stored_backend


def conformance_command(args: argparse.Namespace) -> int:
    from harness.session.conformance_run import run_conformance

    started = time.monotonic()
    run_dir = pathlib.Path(args.run_dir).resolve()
    environment = RunStore(run_dir).environment()  # checked: a run folder is untrusted (None: it has none)
    labs = load_labs()
    measured = environment.labs if environment else {}
    names = split(args.lab) or sorted({target.split("@")[0] for target in measured}) or list(labs)
    builds = {
        name: find_lab(labs, name).for_runtime() for name in names
    }  # each lab's default runtime: the parsers are the lab's
    without_image = tuple(sorted(name for name, build in builds.items() if build.container is None))
    # a run folder from before the rename says "native"
    run_backend = stored_backend(environment.backend) if environment else None
    wanted = conformance_backend(args.backend, run_backend, without_image)
    with engine_for_run(wanted, report=lambda line: print(line, file=sys.stderr)):
        backend, notice = select_backend(wanted, load_isa_table().all_switch_names(), args.bases, None, without_image)
        print(notice, file=sys.stderr)
        if run_backend and backend.name != run_backend:
            print(
                f"note: the run measured with the {run_backend} backend; its conformance runs with "
                f"{backend.name} (the line above says why)",
                file=sys.stderr,
            )
        (run_dir / "logs").mkdir(parents=True, exist_ok=True)
        for name, build in builds.items():
            if backend.name == HOST:
                build.check_requirements()
            backend.build(build, run_dir / "logs" / f"conformance-build-{name}.log")
        cpuset = (environment.lab_cpuset if environment else None) or None
        # The suite runs on the run's lab CPU: never beside a measurement there (harness/host/cpu_lock.py).
        lock = (
            cpus_locked(parse_cpulist(cpuset), f"conformance of {run_dir.name}", args.wait, notify=_say)
            if cpuset
            else contextlib.nullcontext()
        )
        try:
            with lock:
                out = run_conformance(
                    run_dir, builds, backend, DATASETS_DIR, cpuset, progress=lambda line: print(line, file=sys.stderr)
                )
        finally:
            backend.close()
    RunStore(run_dir).record_step(CONFORMANCE, started, "JSONTestSuite through the parsers of the run's labs")
    print(out)
    return 0


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def conformance_backend(asked: str, run_backend: str | None, without_image: tuple[str, ...]) -> str:
    """The backend a run's conformance asks for: what the user gave, else the run's own. A run measured on the host
    backend (stored as "host", or "native" before the rename) gets host; one measured in containers gets `auto`, so the
    lab's own engine is started again when none answers (the run stopped the one it started) and an engine that cannot
    be had is said, not silently replaced."""
    if asked != "auto" or without_image:
        return asked
    return HOST if stored_backend(run_backend) == HOST else "auto"
