"""Where a lab's library versions come from (lab.toml [libraries]): the value of its images' `jsonlab.libraries` label,
'Id=version,...' of the packages the build references directly, read by one small reader per package format.

    [libraries]
    format = "nuget"                # a key of READERS: "nuget", "npm", "debian-packages" or "none"
    lock_file = "src/{lock_file}"   # nuget, npm: the lock file in the lab folder (a template, filled per runtime)
    target = "{tfm}"                # nuget: the lock file's target framework whose direct packages are listed
    packages = ["libsimdjson-dev"]  # debian-packages: the Debian packages that hold the lab's libraries

A lab with a [container] table must declare it ("none": it references no library); an unknown format or key is
refused when lab.toml is read, naming the file and the key. A declared lock file that is missing (or lacks the
declared target) is a BuildError when the image is built, never an empty label.

Debian packages have no lock file: their versions are what the image's dpkg installed. At build time the label names
the declared packages with version "?"; right after the build the harness reads the image's own package list (the one
behind the `jsonlab.apt-packages` label) and commits the label again with each package's version
(`debian_versions`, harness/containers/images.py label_apt_packages). The host's dpkg is never read: it need not be
the image's.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from harness.model.errors import BuildError, ConfigError


@dataclass(frozen=True)
class LibrariesSpec:
    """lab.toml [libraries] (templates; LabSpec.for_runtime fills them in for one build)."""

    format: str
    lock_file: str = ""
    target: str = ""
    packages: tuple[str, ...] = ()

    def filled(self, fill: Callable[[str], str]) -> LibrariesSpec:
        return dataclasses.replace(self, lock_file=fill(self.lock_file), target=fill(self.target))


def _lock(lab: str, directory: pathlib.Path, spec: LibrariesSpec) -> dict:
    path = directory / spec.lock_file
    if not path.is_file():
        raise BuildError(
            f"lab {lab}: the lock file its lab.toml [libraries] lock_file declares, {path}, is missing",
            "restore the lab (it writes the lock file) or correct lock_file in its lab.toml",
        )
    return json.loads(path.read_text())


def nuget_versions(lab: str, directory: pathlib.Path, spec: LibrariesSpec) -> str:
    """The direct packages of the lock file's target (`net8.0`, or `.NETCoreApp,Version=v3.1` for `netcoreapp3.1`)."""
    targets = _lock(lab, directory, spec).get("dependencies", {})
    tfm = spec.target
    target = targets.get(tfm) or targets.get(f".NETCoreApp,Version=v{tfm.removeprefix('netcoreapp')}")
    if target is None:
        raise BuildError(
            f"lab {lab}: {directory / spec.lock_file} has no target {tfm!r} (lab.toml [libraries] target)",
            f"restore the lab for {tfm} (its lock file then has the target) or correct target in its lab.toml",
        )
    return ",".join(
        f"{name}={entry['resolved']}" for name, entry in sorted(target.items()) if entry.get("type") == "Direct"
    )


def npm_versions(lab: str, directory: pathlib.Path, spec: LibrariesSpec) -> str:
    """The direct dependencies of a package-lock.json (lockfileVersion 2 or 3), each at its locked version."""
    packages = _lock(lab, directory, spec).get("packages", {})
    direct = packages.get("", {}).get("dependencies", {})
    return ",".join(f"{name}={packages.get(f'node_modules/{name}', {}).get('version', '?')}" for name in sorted(direct))


def debian_versions(
    lab: str, directory: pathlib.Path, spec: LibrariesSpec, installed: Mapping[str, str] | None = None
) -> str:
    """The declared Debian packages, each at its version in `installed` (an image's dpkg list; '?' where it is not
    known: before the image is built, or a package the list lacks)."""
    return ",".join(f"{name}={(installed or {}).get(name, '?')}" for name in sorted(spec.packages))


def no_versions(lab: str, directory: pathlib.Path, spec: LibrariesSpec) -> str:
    """A lab that references no library."""
    return ""


#: Each format's reader: (lab name, lab folder, its [libraries] filled in for one build) → 'Id=version,...'.
READERS: dict[str, Callable[[str, pathlib.Path, LibrariesSpec], str]] = {
    "nuget": nuget_versions,
    "npm": npm_versions,
    "debian-packages": debian_versions,
    "none": no_versions,
}

#: The keys each format needs besides `format` (and the only ones it takes).
_KEYS = {"nuget": ("lock_file", "target"), "npm": ("lock_file",), "debian-packages": ("packages",), "none": ()}


def parse_libraries(data: dict, path: pathlib.Path, has_container: bool) -> LibrariesSpec | None:
    """lab.toml's [libraries] (`data`: the whole file); None for a lab without it and without a [container] table."""
    lab = data.get("name", path.parent.name)
    table = data.get("libraries")
    if table is None:
        if has_container:
            raise ConfigError(
                f"lab {lab}: {path} has a [container] table but no [libraries]: its images' jsonlab.libraries "
                "label would say nothing",
                f'add [libraries] with format = one of {", ".join(map(repr, READERS))} ("none": no library) '
                "(harness/config/lab/lab_libraries.py)",
            )
        return None
    fmt = table.get("format") if isinstance(table, dict) else None
    if fmt not in READERS:
        raise ConfigError(
            f"lab {lab}: {path} [libraries] format = {fmt!r} is not a format the harness reads",
            f"use one of {', '.join(map(repr, READERS))}, or add a reader to harness/config/lab/lab_libraries.py",
        )
    wanted = _KEYS[fmt]
    extra = sorted(set(table) - {"format", *wanted})
    missing = [key for key in wanted if not table.get(key)]
    packages = table.get("packages", [])
    if not isinstance(packages, list) or not all(isinstance(p, str) and p for p in packages):
        missing.append("packages")
    if extra or missing:
        problem = (
            f"key {extra[0]!r} is not one format {fmt!r} takes"
            if extra
            else f"key {missing[0]!r} is missing or malformed"
        )
        raise ConfigError(
            f"lab {lab}: {path} [libraries] {problem}",
            f"format {fmt!r} takes {', '.join(wanted) or 'no other key'}"
            + (" (a list of Debian package names)" if "packages" in wanted else "")
            + " (harness/config/lab/lab_libraries.py)",
        )
    return LibrariesSpec(fmt, str(table.get("lock_file", "")), str(table.get("target", "")), tuple(packages))


def library_versions(lab: str, directory: pathlib.Path, spec: LibrariesSpec | None) -> str:
    """'Id=version,...' for one build's `jsonlab.libraries` label ('' for a lab that declares no [libraries])."""
    return READERS[spec.format](lab, directory, spec) if spec is not None else ""
