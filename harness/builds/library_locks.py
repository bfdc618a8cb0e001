"""Before the builds of a run: each build with library versions (config/lab/library_builds.py) needs its own lock file.
Where one is missing, every version asked for is checked against the registry first (all of them, before anything is
built or written: a version it does not serve is refused, naming those it does), then the lab's `lock` command writes
the lock file, which the build then restores from exactly as the lab's own builds do. A committed lock file is used as
it is (the version was served when it was written)."""

from __future__ import annotations

import functools
import pathlib
from collections.abc import Callable, Iterable

from harness.builds.lab_build import run_lab_tool
from harness.config.lab.labs import LabSpec
from harness.licences.package_registry import served_versions
from harness.model.errors import BuildError

#: How many served versions an error lists (the newest).
LISTED = 30


def lock_path(lab: LabSpec) -> pathlib.Path | None:
    """This build's lock file (lab.toml [libraries] lock_file, filled for its runtime); None when the lab has none."""
    return lab.directory / lab.libraries.lock_file if lab.libraries and lab.libraries.lock_file else None


def refuse_unserved(lab: LabSpec, served: Callable[[str], list[str]]) -> None:
    """BuildError for the first version of this build the registry does not serve, listing those it does."""
    for package, version in lab.build_libraries:
        versions = served(package)
        if version not in versions:
            shown = versions[-LISTED:]
            raise BuildError(
                f"build {lab.target} asks for {package} {version}, which the registry does not serve",
                (f"versions served: {', '.join(shown)}" + (" (the newest)" if len(versions) > LISTED else ""))
                if versions
                else f"the registry serves no package named {package}",
            )


def _registry(lab: LabSpec, package: str) -> list[str]:
    """What the lab's registry serves of `package`."""
    if lab.library_versions is None:
        raise BuildError(
            f"build {lab.target} has library versions but its lab.toml has no [library_versions]",
            "declare the packages that may vary there (docs/lab-contract.md#library-versions)",
        )
    return served_versions(lab.library_versions, package)


def prepare_library_builds(
    labs: Iterable[LabSpec],
    log_dir: pathlib.Path,
    say: Callable[[str], None],
    served: Callable[[LabSpec, str], list[str]] | None = None,
) -> list[pathlib.Path]:
    """Checks and writes the lock files of the builds with library versions that have none; returns those written."""
    missing_by_path = {
        path: lab for lab in labs if lab.build_libraries and (path := lock_path(lab)) is not None and not path.is_file()
    }  # one per lock file: builds of several runtimes with the same versions share theirs
    missing = list(missing_by_path.values())
    ask = served or _registry
    for lab in missing:
        refuse_unserved(lab, functools.partial(ask, lab))
    written = []
    for lab in missing:
        path = lock_path(lab)
        assert path is not None and lab.library_versions is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        run_lab_tool(lab, lab.library_versions.lock, log_dir / f"lock-{lab.target}.log", "lock file", say)
        if not path.is_file():
            raise BuildError(
                f"the lock command of build {lab.target} wrote no {path}", "check lab.toml [library_versions] lock"
            )
        say(f"lock file for {lab.target}: wrote {path} (commit it: the build restores exactly these packages)")
        written.append(path)
    return written
