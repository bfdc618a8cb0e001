"""Names as `--backend` and lab.toml give them today, and the former names that run folders made before a rename store.

Backends (each row's and environment.json's `backend`): `host` runs each lab process directly on this machine, pinned
with taskset; `docker` in a container. Run folders written before the host backend had its name store it as "native".

Labs (each row's `lab`): the C++ lab was named "native" until 2026-11-28 (the word now names an ISA level only).

The analysis shows a stored backend as it is; a decision that depends on a run's stored backend (which backend its
conformance runs with, say) reads it through `stored_backend`, so an old run folder reads as host. A stored lab name is
read through `stored_lab` where the run did not keep its own labs folder (the lab/ of today is read in its place)."""

from __future__ import annotations

HOST = "host"
DOCKER = "docker"

#: Names stored run folders may hold for a backend that has another name now.
FORMER_BACKENDS = {"native": HOST}
#: Names stored run folders may hold for a lab whose folder has another name now.
FORMER_LABS = {"native": "cpp"}


def stored_backend(name: str | None) -> str | None:
    """A backend name read from a run folder, as today's name ("native" → "host"); None stays None."""
    return None if name is None else FORMER_BACKENDS.get(name, name)


def stored_lab(name: str) -> str:
    """A lab name read from a run folder that did not keep its labs, as today's name ("native" → "cpp")."""
    return FORMER_LABS.get(name, name)
