"""Getting a lab image onto another host: `docker save` from this machine's engine streamed into `docker load` on the
host's (through its context), the image's bytes once over the wire, no registry. The other way, building on the host
through its context with Buildx, needs the lab's local bases there first; docs/hosts.md has both measured.
"""

from __future__ import annotations

import subprocess
import time
from dataclasses import dataclass

from harness.config.hosts import HostSpec
from harness.containers.images import inspect_image
from harness.model.errors import HarnessError

#: Seconds one image may take to cross (a 500 MB image crosses a local socket in well under a minute).
TRANSFER_TIMEOUT_S = 900


@dataclass(frozen=True)
class Transfer:
    """One image moved: its name, size in bytes, and the wall seconds it took."""

    image: str
    bytes: int
    seconds: float


def transfer_image(image: str, host: HostSpec) -> Transfer:
    """Streams `image` from this machine's engine into the host's; raises with the fix when either side fails."""
    info = inspect_image(image)
    if info is None:
        raise HarnessError(f"image {image} is not on this machine's engine", "build it first: `just images`")
    started = time.monotonic()
    save = subprocess.Popen(["docker", "save", image], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        load = subprocess.run(
            ["docker", *host.docker_args(), "load"],
            stdin=save.stdout,
            capture_output=True,
            text=True,
            timeout=TRANSFER_TIMEOUT_S,
        )
    finally:
        if save.stdout:
            save.stdout.close()
        save_error = save.communicate(timeout=TRANSFER_TIMEOUT_S)[1].decode(errors="replace")
    if save.returncode != 0 or load.returncode != 0:
        reason = (save_error.strip() or load.stderr.strip() or "no message").splitlines()[-1]
        raise HarnessError(
            f"could not move image {image} to host {host.name}: {reason}",
            f"check that `docker --context {host.context} info` answers (docs/hosts.md)",
        )
    return Transfer(image, info.size_bytes, time.monotonic() - started)
