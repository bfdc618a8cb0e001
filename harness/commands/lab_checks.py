"""`harness lab-checks test|lint [--lab NAME]`: every lab's own checks (lab.toml [checks]), each from its folder.

Each check prints its lab, its line and its time; a failing one prints the fix its lab names and the others still
run; the exit code is 1 when any failed. `just test` and `just lint` call this, so they name no lab.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time

from harness.builds.lab_models import write_lab_models
from harness.commands.labs import build_labs
from harness.commands.selection import split
from harness.config.lab.lab_checks import LabCheck, LabChecks
from harness.config.lab.labs import load_labs
from harness.model.errors import UnknownNameError


def load_lab_checks() -> list[LabChecks]:
    """Every lab's checks (LabSpec.checks), labs by name."""
    return [lab.checks for lab in load_labs().values() if lab.checks is not None]


def _selected(names: list[str]) -> list[LabChecks]:
    labs = load_lab_checks()
    known = {lab.lab: lab for lab in labs}
    for name in names:
        if name not in known:
            raise UnknownNameError("lab", name, known)
    return [known[name] for name in names] if names else labs


def _run_one(lab: LabChecks, kind: str, number: int, check: LabCheck) -> tuple[bool, str]:
    line, fix = check.run, check.fix
    print(f"lab {lab.lab}: {kind}: {line}", file=sys.stderr, flush=True)
    start = time.monotonic()
    env = {**os.environ, "PYTHON": sys.executable}
    ok = subprocess.run(["bash", "-euo", "pipefail", "-c", line], cwd=lab.directory, env=env).returncode == 0
    took = f"{lab.lab} {kind} {number} {time.monotonic() - start:.0f} s"
    if not ok:
        print(f"lab {lab.lab}: {kind} failed: {line} -- fix: {fix or 'see the output above'}", file=sys.stderr)
    return ok, took


def lab_checks_command(args: argparse.Namespace) -> int:
    failed, times = 0, []
    specs = load_labs()
    for lab in _selected(list(split(args.lab) or ())):
        if lab.lab in specs:
            write_lab_models(specs[lab.lab])  # the declared models' code, which its tests and lint compile
        if args.kind == "test" and lab.build_before_test:
            build_labs((lab.lab,), None)
        for number, check in enumerate(lab.of(args.kind), 1):
            ok, took = _run_one(lab, args.kind, number, check)
            failed += not ok
            times.append(took)
    print(f"lab-checks {args.kind}: {len(times)} run, {failed} failed ({', '.join(times) or 'no lab declares any'})")
    return 1 if failed else 0
