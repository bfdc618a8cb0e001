"""The backends' names, as `--backend` takes them and run folders store them (each row's and environment.json's
`backend`): `host` runs each lab process directly on this machine, pinned with taskset; `docker` in a container.

Run folders written before the host backend had its name store it as "native" (which also names an ISA level and the
C++ lab). The analysis shows a stored value as it is; a decision that depends on a run's stored backend (which backend
its conformance runs with, say) reads it through `stored_backend`, so an old run folder reads as host."""

from __future__ import annotations

HOST = "host"
DOCKER = "docker"

#: Names stored run folders may hold for a backend that has another name now.
FORMER_NAMES = {"native": HOST}


def stored_backend(name: str | None) -> str | None:
    """A backend name read from a run folder, as today's name ("native" → "host"); None stays None."""
    return None if name is None else FORMER_NAMES.get(name, name)
