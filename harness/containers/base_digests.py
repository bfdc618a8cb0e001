"""Pinning the labs' upstream base images by digest (`just pin-bases`, on a machine where their registry answers).

Each lab's Dockerfile names its upstream bases as build-argument defaults, e.g.
`ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0.100-noble`. `pin` resolves each reference in its registry with
`docker buildx imagetools inspect` and rewrites the default as `name:tag@sha256:…`: the tag says what the base is, the
digest which build of it. A pinned reference is resolved again from its tag, so running it later moves the pins to
the tags' current builds, in one reviewable diff. `unpinned` lists the references without a digest (`--check`).
Local bases (lab/*/local-bases.toml, containers/local-bases.toml) replace these arguments on a machine without a
registry and are not pinned here: their image id is recorded in every image's labels and every result row.
"""

from __future__ import annotations

import pathlib
import re
import subprocess
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from harness.containers.engine import docker
from harness.model.errors import BuildError

#: A base-image build argument with its default: `ARG SDK_IMAGE=<reference>`.
BASE_ARG = re.compile(r"^ARG (?P<name>[A-Z0-9_]+_IMAGE)=(?P<reference>\S+)[ \t]*$", re.MULTILINE)

#: The digest line of `docker buildx imagetools inspect <reference>`.
DIGEST_LINE = re.compile(r"^Digest:\s+(sha256:[0-9a-f]{64})\s*$", re.MULTILINE)

#: Seconds one registry lookup may take.
RESOLVE_TIMEOUT_S = 60


@dataclass(frozen=True)
class BaseReference:
    """One base-image build argument of one Dockerfile."""

    dockerfile: pathlib.Path
    argument: str
    reference: str

    @property
    def pinned(self) -> bool:
        return "@sha256:" in self.reference

    @property
    def tag_reference(self) -> str:
        """The reference without its digest (what the registry is asked about)."""
        return self.reference.split("@", 1)[0]


def base_references(dockerfiles: Iterable[pathlib.Path]) -> list[BaseReference]:
    """Every base-image build argument of these Dockerfiles, in file order."""
    return [
        BaseReference(path, m["name"], m["reference"])
        for path in dockerfiles
        for m in BASE_ARG.finditer(path.read_text())
    ]


def unpinned(dockerfiles: Iterable[pathlib.Path]) -> list[BaseReference]:
    """The base references that carry no digest."""
    return [ref for ref in base_references(dockerfiles) if not ref.pinned]


def resolve_digest(reference: str) -> str:
    """The digest a registry serves for a reference now (its manifest list's, for a multi-platform image)."""
    try:
        done = docker("buildx", "imagetools", "inspect", reference, timeout=RESOLVE_TIMEOUT_S)
    except subprocess.TimeoutExpired as e:
        raise BuildError(
            f"the registry of {reference} did not answer within {RESOLVE_TIMEOUT_S} s",
            "pin the bases on a machine whose registry answers; here, `just local-bases` builds stand-ins",
        ) from e
    found = DIGEST_LINE.search(done.stdout) if done.returncode == 0 else None
    if found is None:
        detail = (done.stderr or done.stdout).strip().splitlines()
        raise BuildError(
            f"cannot resolve {reference}: {detail[-1] if detail else 'no digest in the answer'}",
            "pin the bases on a machine whose registry answers, with the Buildx plugin installed",
        )
    return found.group(1)


def pin(
    dockerfiles: Iterable[pathlib.Path], resolve: Callable[[str], str] = resolve_digest
) -> list[tuple[BaseReference, str]]:
    """Rewrites every base reference as tag@digest, resolved now; returns (reference as it was, reference now). Every
    reference is resolved before any file is written, so a registry that fails part-way leaves the files as they were.
    """
    references = base_references(dockerfiles)
    changes = [(ref, f"{ref.tag_reference}@{resolve(ref.tag_reference)}") for ref in references]
    for path in {ref.dockerfile for ref in references}:
        text = path.read_text()
        for ref, new in changes:
            if ref.dockerfile == path:
                text = re.sub(
                    rf"^ARG {ref.argument}=\S+", f"ARG {ref.argument}={new}", text, count=1, flags=re.MULTILINE
                )
        path.write_text(text)
    return changes
