"""The image builder: which docker CLI builds the lab images, and how, found by asking each candidate to build.

The lab's Dockerfiles need BuildKit (`RUN --mount`, `FROM --platform=$BUILDPLATFORM`). A Docker CLI builds with it
through the Buildx plugin (then `docker buildx bake` builds every image in one go), or on its own up to CLI 22
(Debian 12's docker.io CLI, 20.10); a CLI from 23 on without the plugin refuses ("BuildKit is enabled but the buildx
component is missing or broken"), and its classic builder (DOCKER_BUILDKIT=0) cannot read these Dockerfiles. So no
version string decides: each candidate builds a one-file image from scratch (well under a second; the image is removed
again), and the first that succeeds builds the lab images. The candidates, in order: the Buildx plugin of the `docker`
on PATH; every other `docker` on PATH, then Debian's /usr/bin/docker, each with DOCKER_BUILDKIT=1.
"""

from __future__ import annotations

import os
import pathlib
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass

#: The image a probe builds (removed again at once).
PROBE_TAG = "jsonlab-probe/builder:latest"
#: Seconds one probe build may take (a first BuildKit build starts the engine's builder).
PROBE_TIMEOUT_S = 60
#: Where a distribution's own CLI lives when another one comes first on PATH (Debian's docker.io: 20.10).
DISTRIBUTION_CLIS = ("/usr/bin/docker",)
#: What makes a build possible where no candidate builds: printed by the doctor and by a run that must build.
FIX = (
    "install the Buildx plugin (docs/containers.md#buildx: ~/.docker/cli-plugins/docker-buildx) or Debian's docker.io "
    "(apt-get install docker.io: its CLI, /usr/bin/docker, builds with BuildKit without the plugin)"
)
#: Builds with BuildKit; the classic builder is asked only to say why it cannot stand in.
BUILDKIT_ENV = {"DOCKER_BUILDKIT": "1"}


@dataclass(frozen=True)
class Builder:
    """How the lab images build: `bake` (`<cli> buildx bake` over compose.yaml, every image at once) or `build` (one
    `<cli> build` per image, BuildKit on), with the CLI that does it and its version."""

    method: str
    cli: str
    version: str

    def describe(self) -> str:
        if self.method == "bake":
            return f"docker buildx bake (Buildx {self.version}, CLI {self.cli})"
        return f"{self.cli} build with BuildKit, one image at a time (CLI {self.version}, no Buildx plugin)"

    def command(self, *args: str) -> list[str]:
        """argv of this builder's CLI (`bake`: its buildx subcommand)."""
        return [self.cli, "buildx", *args] if self.method == "bake" else [self.cli, *args]

    @property
    def environment(self) -> dict[str, str]:
        return {} if self.method == "bake" else dict(BUILDKIT_ENV)


@dataclass(frozen=True)
class BuilderProbe:
    """The builder found (None: none builds) and one line per candidate asked, saying what it answered."""

    builder: Builder | None
    tried: tuple[str, ...]

    def describe(self) -> str:
        if self.builder is not None:
            return self.builder.describe()
        return "no docker CLI here builds the lab images (" + "; ".join(self.tried) + ")"


Runner = Callable[[list[str], dict[str, str]], subprocess.CompletedProcess[str]]


def _run(argv: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            argv, capture_output=True, text=True, timeout=PROBE_TIMEOUT_S, env={**os.environ, **env}, check=False
        )
    except subprocess.TimeoutExpired:
        return subprocess.CompletedProcess(argv, 124, "", f"no answer within {PROBE_TIMEOUT_S} s")
    except OSError as e:
        return subprocess.CompletedProcess(argv, 127, "", str(e))


def candidate_clis(path: str | None = None, distribution: Sequence[str] = DISTRIBUTION_CLIS) -> list[str]:
    """Every `docker` on PATH in order, then the distribution's own where it is another program; one path per
    program (a symlink and its target count once)."""
    found: dict[str, str] = {}
    folders = (path if path is not None else os.environ.get("PATH", "")).split(os.pathsep)
    for candidate in [os.path.join(folder, "docker") for folder in folders if folder] + list(distribution):
        if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
            found.setdefault(os.path.realpath(candidate), candidate)
    return list(found.values())


def _last_line(done: subprocess.CompletedProcess[str]) -> str:
    lines = [line.strip() for line in (done.stderr or done.stdout or "").splitlines() if line.strip()]
    errors = [line for line in lines if line.startswith("ERROR") or "error" in line.lower()]
    return (errors or lines or [f"exit {done.returncode}"])[0 if errors else -1]


def _buildx_version(cli: str, run: Runner) -> str:
    """'v0.10.5' from `docker buildx version` ("github.com/docker/buildx v0.10.5 86bdced")."""
    words = run([cli, "buildx", "version"], {}).stdout.split()
    return words[1] if len(words) > 1 else "unknown"


def _client_version(cli: str, run: Runner) -> str:
    return run([cli, "version", "--format", "{{.Client.Version}}"], {}).stdout.strip() or "unknown"


def _probe_build(argv: list[str], env: dict[str, str], context: pathlib.Path, run: Runner) -> str:
    """'' when this command built the probe image (removed again), else the reason it did not."""
    done = run([*argv, "-t", PROBE_TAG, str(context)], env)
    if done.returncode != 0:
        return _last_line(done)
    run([argv[0], "image", "rm", "-f", PROBE_TAG], {})
    return ""


def find_builder(run: Runner = _run, clis: list[str] | None = None) -> BuilderProbe:
    """Asks each candidate to build the probe image; the first that does is the builder. Needs an engine that answers:
    without one every candidate fails, and the lines say why."""
    clis = candidate_clis() if clis is None else clis
    if not clis:
        return BuilderProbe(None, ("no docker CLI on PATH",))
    tried: list[str] = []
    with tempfile.TemporaryDirectory(prefix="jsonlab-builder-") as folder:
        context = pathlib.Path(folder)
        (context / "Dockerfile").write_text("FROM scratch\nCOPY probe /probe\n")
        (context / "probe").write_text("the lab's builder probe\n")
        first = clis[0]
        if run([first, "buildx", "version"], {}).returncode == 0:
            problem = _probe_build([first, "buildx", "build", "--load"], {}, context, run)
            if not problem:
                return BuilderProbe(Builder("bake", first, _buildx_version(first, run)), ())
            tried.append(f"{first} buildx: {problem}")
        else:
            tried.append(f"{first}: no Buildx plugin")
        for cli in clis:
            problem = _probe_build([cli, "build"], BUILDKIT_ENV, context, run)
            if not problem:
                return BuilderProbe(Builder("build", cli, _client_version(cli, run)), tuple(tried))
            tried.append(f"{cli} build with BuildKit: {problem}")
        if not _probe_build([first, "build"], {"DOCKER_BUILDKIT": "0"}, context, run):
            tried.append(f"{first}'s classic builder builds, but the lab's Dockerfiles need BuildKit (RUN --mount)")
    return BuilderProbe(None, tuple(tried))


def describe_for_doctor(engine_answers: bool, probe: BuilderProbe) -> list[str]:
    """`harness doctor`'s lines on containers: what builds the lab images and what a run will do about it."""
    lines = [f"  {line}" for line in probe.tried]
    if probe.builder is not None:
        return [f"images: {probe.builder.describe()}", *lines, "  a run measures in containers"]
    if not engine_answers:
        return [
            "images: no Docker engine answers, so which docker CLI builds is asked when one does (a run starts the "
            "lab's own, as root); what each answered now:",
            *lines,
        ]
    return [
        "images: no docker CLI here builds the lab images:",
        *lines,
        f"  a run with --backend auto measures on the host, --backend docker stops before any build; fix: {FIX}",
    ]
