"""Builds with another version of a library than the lab's own, a cell dimension like the runtime: the build's name is
its runtime's with the library versions after a '+', e.g. "8.0.0+Newtonsoft.Json=13.0.3" (the lab's runtime 8.0.0
built with Newtonsoft.Json 13.0.3), so it is asked for, planned, built, probed and recorded in every row as any runtime
is. lab.toml [library_versions] says which packages may vary, the build-command argument that sets each one's version,
the registry that says which versions exist (harness/licences/package_registry.py asks it before anything is built), and
the command that writes a derived build's own lock file (harness/builds/library_locks.py)."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Callable
from dataclasses import dataclass

from harness.config.lab.lab_builds import LabRuntime
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.places import LIBRARY_SEPARATOR

#: Between the runtime and each library version in a build's name (one home: harness/model/places.py).
SEPARATOR = LIBRARY_SEPARATOR
#: One library version in a build's name: a package id, '=', a version.
_LIBRARY = re.compile(r"(?P<package>[A-Za-z0-9][A-Za-z0-9._-]{0,99})=(?P<version>[0-9][0-9A-Za-z.+-]{0,63})")
#: The registries a lab may name.
REGISTRIES = ("nuget", "npm")
#: Where a derived build's lock file lives, relative to where the lab's own lock files are named from.
LOCK_DIR = "locks"

Libraries = tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class LibraryVersions:
    """lab.toml [library_versions]: the packages that may vary (each with its build-command arguments, templates of
    {version}), the registry asked which versions exist, and the command that writes a lock file (a template of
    {lock_file} and the runtime's values, plus the packages' arguments)."""

    registry: str
    index: str
    packages: dict[str, tuple[str, ...]]
    lock: tuple[str, ...]
    # Packages whose version is not a factor of what a cell measures, with why (a data generator, the benchmark
    # harness): builds with them can be asked for, but an explanation does not switch them.
    roles: dict[str, str] = dataclasses.field(default_factory=dict)
    # Packages the runtime ships in-box, versioned with it (System.Text.Json): the package replaces the runtime's copy
    # only when newer, so a version older than the runtime's is refused before anything is built.
    in_box: tuple[str, ...] = ()

    def filled(self, fill: Callable[[str], str], libraries: Libraries) -> LibraryVersions:
        """One build's: its lock command filled in, with the arguments that ask for its versions."""
        return dataclasses.replace(self, lock=tuple(fill(a) for a in self.lock) + self.arguments(libraries))

    def arguments(self, libraries: Libraries) -> tuple[str, ...]:
        """The build-command arguments that ask for these versions."""
        return tuple(arg.format(version=version) for package, version in libraries for arg in self.packages[package])


def parse_library_versions(data: dict | None, where: str) -> LibraryVersions | None:
    """lab.toml's [library_versions] table (None: the lab's libraries do not vary)."""
    if data is None:
        return None
    packages = data.get("packages")
    if (
        data.get("registry") not in REGISTRIES
        or not isinstance(data.get("index", ""), str)
        or not isinstance(packages, dict)
        or not packages
        or not all(isinstance(v, list) and all(isinstance(a, str) for a in v) for v in packages.values())
        or not isinstance(data.get("lock"), list)
        or not isinstance(data.get("roles", {}), dict)
        or not set(data.get("roles", {})) <= set(packages)
        or not isinstance(data.get("in_box", []), list)
        or not set(data.get("in_box", [])) <= set(packages)
    ):
        raise ConfigError(
            f"{where}: [library_versions] needs registry ({' or '.join(REGISTRIES)}), index (the registry's address), "
            "packages (a table: package = [its build arguments, with {version}]), lock (a command) and optionally "
            "roles (package = why its version is not a factor of a measurement, for packages it names) and in_box (the "
            "packages it names that the runtime ships)",
            "compare it with lab/dotnet/lab.toml",
        )
    return LibraryVersions(
        data["registry"],
        data.get("index", ""),
        {name: tuple(args) for name, args in packages.items()},
        tuple(str(a) for a in data["lock"]),
        {str(k): str(v) for k, v in data.get("roles", {}).items()},
        tuple(str(name) for name in data.get("in_box", [])),
    )


def _release(version: str) -> tuple[int, ...]:
    """(10, 0, 12) for "10.0.12" or "10.0.12-rc.1": the numeric release a version names."""
    return tuple(int(part) for part in re.findall(r"\d+", version.split("-", 1)[0].split("+", 1)[0]))


def split_build_name(name: str) -> tuple[str, Libraries]:
    """("8.0.0", (("Newtonsoft.Json", "13.0.3"),)) for "8.0.0+Newtonsoft.Json=13.0.3"; a plain runtime has none.
    ConfigError for a library part that is not package=version."""
    base, *parts = name.split(SEPARATOR)
    libraries = []
    for part in parts:
        match = _LIBRARY.fullmatch(part)
        if match is None:
            raise ConfigError(
                f"build {name!r}: {part!r} is not a library version (package=version)",
                f"e.g. {base}{SEPARATOR}Newtonsoft.Json=13.0.3 (docs/lab-contract.md#library-versions)",
            )
        libraries.append((match["package"], match["version"]))
    packages = [package for package, _ in libraries]
    if len(set(packages)) != len(packages):
        raise ConfigError(f"build {name!r} names a package twice", "give each package one version")
    return base, tuple(sorted(libraries))


def canonical(name: str) -> str:
    """The name as a lab knows it: a runtime with library versions in package order, any other name as it is."""
    return build_name(*split_build_name(name)) if SEPARATOR in name else name


def build_name(base: str, libraries: Libraries) -> str:
    """The canonical name: the runtime, then each library version in package order."""
    return SEPARATOR.join([base, *(f"{package}={version}" for package, version in sorted(libraries))])


def safe_name(name: str) -> str:
    """The build's name where '+' and '=' may not appear (an image tag, a compose service): '+' as '_', '=' as '-'."""
    return name.replace(SEPARATOR, "_").replace("=", "-")


def derived_lock_file(base_lock_file: str, libraries: Libraries) -> str:
    """The derived build's own lock file, beside where the runtime's is named from: locks/packages.aot.Newtonsoft.Json-
    13.0.3.lock.json for packages.aot.lock.json."""
    stem = base_lock_file.removesuffix(".json").removesuffix(".lock")
    versions = ".".join(f"{package}-{version}" for package, version in libraries)
    return f"{LOCK_DIR}/{stem}.{versions}.lock.json"


def derive_runtime(lab: str, spec: LibraryVersions | None, base: LabRuntime, name: str) -> LabRuntime:
    """The runtime `name` (base's name + library versions) of lab `lab`: base's, with the library versions (its own lock
    file is derived when its templates are filled: LabSpec.for_runtime); UnknownNameError for a package the lab's
    [library_versions] does not name."""
    base_name, libraries = split_build_name(name)
    valid = sorted(spec.packages) if spec else []
    for package, version in libraries:
        if package not in valid:
            raise UnknownNameError(
                "library", package, valid or ["none"], f"for lab {lab} (lab/{lab}/lab.toml [library_versions])"
            )
        if spec and package in spec.in_box and _release(version) < _release(base.version):
            raise ConfigError(
                f"build {name!r}: {package} {version} is older than the copy runtime {base.version} ships in-box, "
                "which the runtime loads instead of the package",
                f"ask for {package} {base.version} or newer on it, or for {version} on an older runtime of lab {lab}",
            )
    return dataclasses.replace(
        base,
        name=build_name(base_name, libraries),
        note=f"{base_name} with {', '.join(f'{p} {v}' for p, v in libraries)}",
        sweep=False,
        libraries=libraries,
    )
