"""Free space where the Docker engine keeps its images, checked before any base or image is built: a disk that fills
during a build fails minutes in with a compiler's or linker's message; this stops the run in seconds with the fix."""

from __future__ import annotations

import pathlib
import shutil
import subprocess

from harness.containers.engine import ENGINE_TIMEOUT_S, docker
from harness.model.errors import BuildError

#: Space one build (a local base, or a lab image with its build stage and its share of the package cache) takes in an
#: empty engine, rounded up: in the fresh-machine check of 2026-11-28, 4 local bases and 6 lab images took 8.7 GB.
GB_PER_BUILD = 1.0
#: Bytes per GB as `df -h` counts them.
GB = 1024**3


def engine_data_root() -> pathlib.Path | None:
    """The engine's data root (DockerRootDir) when it is a folder this process can see; None otherwise (a remote
    engine, or one that does not say)."""
    try:
        done = docker("info", "--format", "{{.DockerRootDir}}", timeout=ENGINE_TIMEOUT_S)
    except subprocess.TimeoutExpired:
        return None
    root = pathlib.Path(done.stdout.strip()) if done.returncode == 0 and done.stdout.strip() else None
    return root if root is not None and root.is_absolute() and root.is_dir() else None


def require_space(builds: int, root: pathlib.Path | None = None, free_bytes: int | None = None) -> None:
    """BuildError with the fix when the engine's data root has less free space than `builds` builds take; nothing when
    there is enough, nothing to build, or no data root to measure."""
    if builds <= 0:
        return
    root = root or engine_data_root()
    if root is None:
        return
    free = free_bytes if free_bytes is not None else shutil.disk_usage(root).free
    need = builds * GB_PER_BUILD * GB
    if free < need:
        raise BuildError(
            f"the Docker engine keeps its images in {root}, which has {free / GB:.1f} GB free; the {builds} builds "
            f"this run needs take about {need / GB:.0f} GB",
            f"free space there (`df -h {root}`; `docker builder prune` removes the build cache, `docker image prune` "
            "untagged images) or give the engine a data-root on a larger disk (docs/containers.md#disk-space), "
            "then run again: what was built is reused",
        )
