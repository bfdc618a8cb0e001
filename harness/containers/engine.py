"""The Docker engine as the harness sees it: whether one answers, its version, and whether the Buildx plugin is
there."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass

from harness.model.errors import MissingToolError

#: Seconds a `docker info`/`version` question may take before the engine counts as not answering.
ENGINE_TIMEOUT_S = 10


@dataclass(frozen=True)
class Engine:
    """A Docker engine that answered: its server version and architecture, and the Buildx plugin's version (None:
    absent)."""

    server_version: str
    arch: str
    buildx_version: str | None

    def describe(self) -> str:
        buildx = f", Buildx {self.buildx_version}" if self.buildx_version else ", no Buildx plugin"
        return f"Docker engine {self.server_version} ({self.arch}){buildx}"


def docker(*args: str, timeout: float | None = None, input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs the docker CLI and returns what it did (never raises on a non-zero exit)."""
    if shutil.which("docker") is None:
        raise MissingToolError(
            "the docker CLI is not on PATH",
            "install Docker (Debian: apt-get install docker.io) or use --backend native",
        )
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, input=input_text)


def find_engine() -> tuple[Engine | None, str]:
    """The engine, or None with the reason it does not count as available (no CLI, no daemon, no answer)."""
    if shutil.which("docker") is None:
        return None, "no docker CLI on PATH"
    try:
        done = docker("version", "--format", "{{json .Server}}", timeout=ENGINE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None, f"the Docker engine did not answer within {ENGINE_TIMEOUT_S} s"
    server = None
    if done.returncode == 0:
        try:
            server = json.loads(done.stdout)
        except json.JSONDecodeError:
            server = None
    if not server:
        reason = (done.stderr.strip().splitlines() or ["no answer"])[-1]
        return None, f"no Docker engine answers ({reason})"
    buildx = docker("buildx", "version", timeout=ENGINE_TIMEOUT_S)
    buildx_version = buildx.stdout.split()[1] if buildx.returncode == 0 and len(buildx.stdout.split()) > 1 else None
    return (
        Engine(server.get("Version", "unknown"), server.get("Arch", "unknown"), buildx_version),
        "a Docker engine answers",
    )
