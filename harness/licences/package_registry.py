"""Which versions of a package a lab's registry serves, asked before a build with library versions
(config/lab/library_builds.py) is made: a version it does not serve is refused in seconds, naming those it does. NuGet
is asked through its service index (the PackageBaseAddress resource's `<id>/index.json`), npm through `npm view`. The
answers are the registry's, so they are read bounded and checked."""

from __future__ import annotations

import http.client
import json
import subprocess
import urllib.error
import urllib.request

from harness.config.lab.library_builds import LibraryVersions
from harness.model.errors import BuildError

#: Seconds one question to a registry may take.
TIMEOUT_S = 30
#: Bytes one answer may have (Newtonsoft.Json's version list is under 1 kB; the largest NuGet lists are ~100 kB).
MAX_ANSWER_BYTES = 4 * 1024 * 1024


def _fetch_json(url: str) -> object | None:
    """The JSON document at url (None: the registry says it has none, 404)."""
    try:
        with urllib.request.urlopen(url, timeout=TIMEOUT_S) as answer:  # noqa: S310 (the lab's own registry)
            body = answer.read(MAX_ANSWER_BYTES + 1)
    except urllib.error.HTTPError as e:
        if e.code == 404:
            return None
        raise BuildError(f"the registry answered {e.code} for {url}", "check the registry in lab.toml") from e
    except (urllib.error.URLError, OSError, ValueError, http.client.HTTPException) as e:
        raise BuildError(
            f"cannot ask the registry which versions exist ({url}): {e}",
            "check the network and the registry lab.toml [library_versions] names; a build whose lock file is "
            "committed needs no answer",
        ) from e
    if len(body) > MAX_ANSWER_BYTES:
        raise BuildError(f"the registry's answer for {url} is over {MAX_ANSWER_BYTES} bytes", "check the registry")
    try:
        return json.loads(body)
    except ValueError as e:
        raise BuildError(f"the registry's answer for {url} is not JSON", "check the registry") from e


def _strings(values: object, where: str) -> list[str]:
    if not isinstance(values, list) or not all(isinstance(v, str) for v in values):
        raise BuildError(f"the registry's version list for {where} is not a list of strings", "check the registry")
    return list(values)


def nuget_versions(index: str, package: str) -> list[str]:
    """The versions the NuGet feed with this service index serves ([] for a package it does not have)."""
    service = _fetch_json(index)
    resources = service.get("resources") if isinstance(service, dict) else None
    base = next(
        (
            r.get("@id")
            for r in resources or []
            if isinstance(r, dict) and str(r.get("@type", "")).startswith("PackageBaseAddress/3.0.0")
        ),
        None,
    )
    if not isinstance(base, str) or not base.startswith(("https://", "http://")):
        raise BuildError(
            f"{index} names no PackageBaseAddress/3.0.0 resource at an http(s) address",
            "check lab.toml's registry index",
        )
    listing = _fetch_json(f"{base.rstrip('/')}/{package.lower()}/index.json")
    return [] if listing is None else _strings(listing.get("versions") if isinstance(listing, dict) else None, package)


def npm_versions(package: str) -> list[str]:
    """The versions the npm registry npm is configured for serves ([] for a package it does not have)."""
    try:
        done = subprocess.run(
            ["npm", "view", package, "versions", "--json"], capture_output=True, text=True, timeout=TIMEOUT_S
        )
    except (OSError, subprocess.TimeoutExpired) as e:
        raise BuildError(f"cannot ask npm which versions of {package} exist: {e}", "install npm; check the network")
    if done.returncode != 0:
        return [] if "E404" in done.stderr else _raise_npm(package, done.stderr)
    try:
        versions = json.loads(done.stdout or "[]")
    except ValueError as e:
        raise BuildError(f"npm view {package} answered no JSON", "check npm's registry") from e
    return _strings([versions] if isinstance(versions, str) else versions, package)


def _raise_npm(package: str, stderr: str) -> list[str]:
    raise BuildError(f"npm view {package} failed: {stderr.strip()[-300:]}", "check npm's registry and the network")


def served_versions(spec: LibraryVersions, package: str) -> list[str]:
    """The versions of `package` the lab's registry serves."""
    return nuget_versions(spec.index, package) if spec.registry == "nuget" else npm_versions(package)
