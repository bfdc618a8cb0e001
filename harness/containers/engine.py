"""The Docker engine as the harness sees it: whether one answers, its version, and which docker CLI builds the lab
images on it (harness/containers/builder.py)."""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass

from harness.containers.builder import BuilderProbe, find_builder
from harness.model.errors import MissingToolError

#: find_engine's reason when there is no CLI to ask.
NO_CLI = "no docker CLI on PATH"
#: Seconds a `docker info`/`version` question may take before the engine counts as not answering.
ENGINE_TIMEOUT_S = 10


@dataclass(frozen=True)
class Engine:
    """A Docker engine that answered: its server version and architecture, and what builds images on it (None: not
    asked)."""

    server_version: str
    arch: str
    builds: BuilderProbe | None = None

    def describe(self) -> str:
        builder = f"; images: {self.builds.describe()}" if self.builds is not None else ""
        return f"Docker engine {self.server_version} ({self.arch}){builder}"

    @property
    def buildx_version(self) -> str | None:
        """The Buildx plugin's version when the images build with it (bake), else None."""
        builder = self.builds.builder if self.builds else None
        return builder.version if builder is not None and builder.method == "bake" else None


def docker(*args: str, timeout: float | None = None, input_text: str | None = None) -> subprocess.CompletedProcess[str]:
    """Runs the docker CLI and returns what it did (never raises on a non-zero exit)."""
    if shutil.which("docker") is None:
        raise MissingToolError(
            "the docker CLI is not on PATH",
            "install Docker (Debian: apt-get install docker.io) or use --backend host",
        )
    return subprocess.run(["docker", *args], capture_output=True, text=True, timeout=timeout, input=input_text)


def find_engine(probe_builder: bool = True) -> tuple[Engine | None, str]:
    """The engine, or None with the reason it does not count as available (no CLI, no daemon, no answer); with
    `probe_builder`, which docker CLI builds images on it (a probe build of under a second)."""
    if shutil.which("docker") is None:
        return None, NO_CLI
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
    builds = find_builder() if probe_builder else None
    return (
        Engine(server.get("Version", "unknown"), server.get("Arch", "unknown"), builds),
        "a Docker engine answers",
    )
