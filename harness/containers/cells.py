"""Long-lived cell containers: one container per lab image, CPU set and mounts, started on first use with the same
isolation flags as a one-off `docker run`, idling in `sleep infinity` while the harness `docker exec`s each cell's
process into it. Removed when the run ends, when a process in it has to be killed, or found dead after a failed cell
(the next cell then starts a new one). Containers carry the label `jsonlab.cells` with the harness's PID, so leftovers
of a killed harness can be found (`docker ps --filter label=jsonlab.cells`)."""

from __future__ import annotations

import atexit
import os
import subprocess
import uuid

from harness.containers.engine import docker

#: How long starting or removing a container may take before it counts as failed.
CONTAINER_COMMAND_TIMEOUT_S = 60
LABEL = "jsonlab.cells"

#: A container's identity: image tag, CPU set, and its mounts (host path, path inside, read-only) in order.
Key = tuple[str, str, tuple[tuple[str, str, bool], ...]]


class CellContainers:
    """The long-lived containers of one run, by (image, CPU set, mounts)."""

    def __init__(self) -> None:
        self._running: dict[Key, str] = {}
        self.started = 0  # containers started, for the run's record
        atexit.register(self.close)

    def ensure(self, image: str, cpuset: str, mounts: dict, run_flags: list[str]) -> str | None:
        """The name of the running container for this image, CPU set and mounts, started with `run_flags` (isolation,
        CPU set, mounts, platform) when there is none; None when it cannot start (the caller then runs the process in a
        container of its own, whose log shows the engine's error)."""
        key: Key = (image, cpuset, tuple(sorted((str(host), inside, ro) for host, (inside, ro) in mounts.items())))
        if key in self._running:
            return self._running[key]
        name = f"jsonlab-cells-{uuid.uuid4().hex[:12]}"
        try:
            done = docker(
                "run",
                "--detach",
                "--rm",
                "--name",
                name,
                "--label",
                f"{LABEL}={os.getpid()}",
                *run_flags,
                "--entrypoint",
                "sleep",
                image,
                "infinity",
                timeout=CONTAINER_COMMAND_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            self._remove(name)
            return None
        if done.returncode != 0:
            return None
        self._running[key] = name
        self.started += 1
        return name

    def discard(self, name: str) -> None:
        """Removes a container (with whatever runs in it) and forgets it."""
        self._forget(name)
        self._remove(name)

    def forget_if_stopped(self, name: str) -> None:
        """Forgets a container that is no longer running (after a failed cell), so the next cell starts a new one."""
        try:
            done = docker("inspect", "--format", "{{.State.Running}}", name, timeout=CONTAINER_COMMAND_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            return
        if done.returncode != 0 or done.stdout.strip() != "true":
            self.discard(name)

    def names(self) -> list[str]:
        return list(self._running.values())

    def close(self) -> None:
        """Removes every container still running."""
        for name in self.names():
            self.discard(name)

    def _forget(self, name: str) -> None:
        self._running = {key: value for key, value in self._running.items() if value != name}

    @staticmethod
    def _remove(name: str) -> None:
        try:
            docker("rm", "--force", name, timeout=CONTAINER_COMMAND_TIMEOUT_S)
        except (subprocess.TimeoutExpired, OSError):
            pass
