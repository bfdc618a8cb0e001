"""Backends run the lab contract's verbs somewhere: on this host (taskset), in Docker containers, or faked for tests."""

from __future__ import annotations

from harness.backends.base import Backend, CellRequest
from harness.backends.docker import DockerBackend
from harness.backends.fake import FakeBackend
from harness.backends.host import HostBackend
from harness.containers.builder import FIX
from harness.containers.engine import find_engine
from harness.model.errors import HarnessError, UnknownNameError
from harness.model.folder.stored_names import DOCKER, HOST

#: The visible registry of backends by name; "auto" picks docker when an engine answers, host otherwise.
BACKENDS = {HOST: HostBackend, DOCKER: DockerBackend}
BACKEND_CHOICES = ("auto", *BACKENDS)


def select_backend(
    name: str,
    switch_names: set[str],
    bases: str = "auto",
    platform: str | None = None,
    without_image: tuple[str, ...] = (),
    container_per_process: bool = False,
) -> tuple[Backend, str]:
    """The backend to run with, and a one-line notice saying which and why. `without_image` names the planned labs that
    have no container image (no [container] table in their lab.toml): auto then runs on the host backend, so all cells
    of a run run the same way."""
    if name not in BACKEND_CHOICES:
        raise UnknownNameError("backend", name, BACKEND_CHOICES)
    if platform and name != DOCKER:
        raise HarnessError(f"--platform {platform} needs the docker backend", "add --backend docker")
    if name == HOST:
        return HostBackend(switch_names), "backend: host (asked for with --backend host)"
    engine, reason = find_engine()
    if name == DOCKER:
        backend = DockerBackend(switch_names, bases, engine, platform, container_per_process)
        emulated = f", images for {platform} under emulation: functional checks only" if backend.emulates else ""
        return backend, f"backend: docker (asked for; {reason}{emulated})"
    if engine is None:
        return HostBackend(switch_names), f"backend: host ({reason}; --backend docker needs one)"
    if without_image:
        return HostBackend(switch_names), (
            f"backend: host (a Docker engine answers, but lab {', '.join(without_image)} has no image: "
            "no [container] table in its lab.toml)"
        )
    if engine.builds is not None and engine.builds.builder is None:
        return HostBackend(switch_names), (
            f"backend: host (a Docker engine answers, but {engine.builds.describe()}; to measure in containers, "
            f"{FIX})"
        )
    return (
        DockerBackend(switch_names, bases, engine, container_per_process=container_per_process),
        f"backend: docker ({engine.describe()}; --backend host runs without containers)",
    )


__all__ = [
    "BACKENDS",
    "BACKEND_CHOICES",
    "Backend",
    "CellRequest",
    "DockerBackend",
    "FakeBackend",
    "HostBackend",
    "select_backend",
]
