"""Native backend: each cell is a fresh lab process on this host, pinned with taskset."""

from __future__ import annotations

import json
import os
import subprocess
from typing import Any

import pathlib

from harness.backends.base import CellRequest
from harness.build import build_lab
from harness.defaults import PROBE_TIMEOUT_S
from harness.errors import CellError, HarnessError
from harness.labs import LabSpec
from harness.pinning import taskset_prefix


def last_lab_error(output: str) -> tuple[str, str] | None:
    """The lab's own 'error:' / 'hint:' lines, if it printed them (the lab contract's error format)."""
    error = hint = None
    for line in output.splitlines():
        if line.startswith("error: "):
            error = line[len("error: "):]
        elif line.startswith("hint: "):
            hint = line[len("hint: "):]
    return (error, hint or "") if error else None


class NativeBackend:
    """Runs the lab's command directly; ISA switches go in the process environment."""

    name = "native"

    def __init__(self, switch_names: set[str]) -> None:
        # Every variable any ISA table knows is removed from the inherited environment first, so a
        # DOTNET_Enable* left in the user's shell cannot silently change the 'native' level.
        self._switch_names = switch_names

    def environment(self, lab: LabSpec, switches: dict[str, str]) -> dict[str, str]:
        """The child environment: inherited, minus stray ISA switches, plus the lab's own settings and this level's switches."""
        env = {k: v for k, v in os.environ.items() if k not in self._switch_names}
        env.update(lab.environment)
        env.update(switches)
        env.setdefault("DOTNET_CLI_TELEMETRY_OPTOUT", "1")
        return env

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        build_lab(lab, log_path)

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> Any:
        command = [*lab.command, *args]
        try:
            done = subprocess.run(command, cwd=lab.directory, env=self.environment(lab, switches), capture_output=True,
                                  text=True, timeout=PROBE_TIMEOUT_S)
        except subprocess.TimeoutExpired as e:
            raise HarnessError(f"lab '{lab.name}' did not answer `{' '.join(args)}` within {PROBE_TIMEOUT_S} s", "run the command by hand to see where it hangs") from e
        except FileNotFoundError as e:
            raise HarnessError(f"cannot start lab '{lab.name}': {e}", "build it first (just build)") from e
        if done.returncode != 0:
            message = (done.stderr.strip().splitlines() or ["no output"])[-1]
            hint = "build the lab (just build) and retry"
            found = last_lab_error(done.stderr)
            if found:
                message, hint = found[0], found[1] or hint
            raise HarnessError(f"lab '{lab.name}' `{' '.join(args)}` failed: {message}", hint)
        return json.loads(done.stdout)

    def run_cell(self, request: CellRequest) -> None:
        command = [*taskset_prefix(request.cpuset), *request.lab.command, *request.lab_args()]
        with request.log_path.open("w") as log:
            log.write(f"$ {' '.join(command)}\n# switches: {json.dumps(request.switches)}\n")
            log.flush()
            try:
                done = subprocess.run(command, cwd=request.lab.directory, env=self.environment(request.lab, request.switches),
                                      stdout=log, stderr=subprocess.STDOUT, timeout=request.timeout_s)
            except subprocess.TimeoutExpired as e:
                raise CellError(f"cell timed out after {request.timeout_s:.0f} s", f"see {request.log_path}") from e
        if done.returncode != 0:
            found = last_lab_error(request.log_path.read_text(errors="replace"))
            detail = found[0] if found else f"lab exited with code {done.returncode}"
            raise CellError(detail, (found[1] + "; " if found and found[1] else "") + f"full log: {request.log_path}")
