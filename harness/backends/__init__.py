"""Backends run the lab contract's verbs somewhere: natively (taskset), in Docker containers, or faked for tests."""

from __future__ import annotations

from harness.backends.base import Backend, CellRequest
from harness.backends.docker import DockerBackend
from harness.backends.fake import FakeBackend
from harness.backends.native import NativeBackend
from harness.containers.builder import FIX
from harness.containers.engine import find_engine
from harness.model.errors import HarnessError, UnknownNameError

#: The visible registry of backends by name; "auto" picks docker when an engine answers, native otherwise.
BACKENDS = {"native": NativeBackend, "docker": DockerBackend}
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
    have no container image (no [container] table in their lab.toml): auto then runs natively, so all cells of a run
    run the same way."""
    if name not in BACKEND_CHOICES:
        raise UnknownNameError("backend", name, BACKEND_CHOICES)
    if platform and name != "docker":
        raise HarnessError(f"--platform {platform} needs the docker backend", "add --backend docker")
    if name == "native":
        return NativeBackend(switch_names), "backend: native (asked for with --backend native)"
    engine, reason = find_engine()
    if name == "docker":
        backend = DockerBackend(switch_names, bases, engine, platform, container_per_process)
        emulated = f", images for {platform} under emulation: functional checks only" if backend.emulates else ""
        return backend, f"backend: docker (asked for; {reason}{emulated})"
    if engine is None:
        return NativeBackend(switch_names), f"backend: native ({reason}; --backend docker needs one)"
    if without_image:
        return NativeBackend(switch_names), (
            f"backend: native (a Docker engine answers, but lab {', '.join(without_image)} has no image: "
            "no [container] table in its lab.toml)"
        )
    if engine.builds is not None and engine.builds.builder is None:
        return NativeBackend(switch_names), (
            f"backend: native (a Docker engine answers, but {engine.builds.describe()}; to measure in containers, "
            f"{FIX})"
        )
    return (
        DockerBackend(switch_names, bases, engine, container_per_process=container_per_process),
        f"backend: docker ({engine.describe()}; --backend native runs without containers)",
    )


__all__ = [
    "BACKENDS",
    "BACKEND_CHOICES",
    "Backend",
    "CellRequest",
    "DockerBackend",
    "FakeBackend",
    "NativeBackend",
    "select_backend",
]
