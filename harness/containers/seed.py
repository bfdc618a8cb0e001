"""The NuGet seed of an offline image build: the packages an image's restore needs, copied (hard-linked where the
filesystem allows) from this host's NuGet global-packages folder into one folder that the build reads as a named
context. NuGet reads a global-packages layout (<id>/<version>/<id>.<version>.nupkg) as a local feed, and the lock files
still pin every package by content hash, so an image restores exactly what the build on this host restores."""

from __future__ import annotations

import json
import os
import pathlib
import shutil

from harness.config.lab.labs import LabSpec
from harness.model.errors import BuildError


def global_packages_folder() -> pathlib.Path:
    """Where this host's restores put packages (NUGET_PACKAGES, else ~/.nuget/packages)."""
    return pathlib.Path(os.environ.get("NUGET_PACKAGES") or pathlib.Path.home() / ".nuget" / "packages")


def locked_packages(lock_file: pathlib.Path) -> set[tuple[str, str]]:
    """(lower-case id, version) of every package a packages.lock.json pins, in every target."""
    data = json.loads(lock_file.read_text())
    return {
        (package.lower(), entry["resolved"])
        for target in data.get("dependencies", {}).values()
        for package, entry in target.items()
        if entry.get("type") != "Project" and "resolved" in entry
    }


def seed_entries(lab: LabSpec, packages: pathlib.Path) -> list[pathlib.Path]:
    """The <id>/<version> folders of `packages` an offline build of `lab` needs; BuildError when one is missing."""
    spec = lab.container
    if spec is None:
        return []
    wanted: set[pathlib.Path] = set()
    missing = []
    for name in spec.offline_lock_files:
        for package, version in sorted(locked_packages(lab.directory / name)):
            folder = packages / package / version
            (wanted.add(folder) if folder.is_dir() else missing.append(f"{package} {version}"))
    if missing:
        raise BuildError(
            f"the offline image build of lab {lab.name} needs packages this host has not restored: "
            f"{', '.join(missing[:5])}" + (f" and {len(missing) - 5} more" if len(missing) > 5 else ""),
            "build the lab on this host once (just build), which restores them, then build the images again",
        )
    for pattern in spec.offline_packs:
        for pack in packages.glob(pattern):
            wanted.update(v for v in pack.iterdir() if v.is_dir())
    return sorted(wanted)


def make_seed(lab: LabSpec, destination: pathlib.Path, packages: pathlib.Path | None = None) -> int:
    """Fills `destination` with the seed (reusing what is there); returns how many package versions it holds."""
    packages = packages or global_packages_folder()
    entries = seed_entries(lab, packages)
    for entry in entries:
        target = destination / entry.relative_to(packages)
        if (target / ".nupkg.metadata").exists() or (target / f"{entry.parent.name}.{entry.name}.nupkg").exists():
            continue
        shutil.copytree(entry, target, copy_function=_link_or_copy, dirs_exist_ok=True)
    return len(entries)


def _link_or_copy(source: str, target: str) -> None:
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
