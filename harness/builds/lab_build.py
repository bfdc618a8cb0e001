"""Building a lab before its cells run; a failure names its cause lines and plain advice (builds/build_failure.py).

A lab that names its build inputs and output folder in lab.toml is built only when needed: the output
keeps a fingerprint of the inputs and the build command, and a build whose fingerprint matches is reused."""

from __future__ import annotations

import hashlib
import pathlib
from collections.abc import Callable

from harness.builds.build_failure import read_build_failure
from harness.builds.lab_models import lab_model_files, write_lab_models
from harness.builds.watched_process import WatchedBuild, run_watched
from harness.config.lab.labs import LabSpec
from harness.model.defaults import BUILD_TIMEOUT_S
from harness.model.errors import BuildError


def _quiet(line: str) -> None:
    """Says nothing: the default for a lab tool whose progress nobody watches."""


#: The fingerprint file inside a lab's build output.
STAMP_FILE = ".lab-build.sha256"


def build_fingerprint(lab: LabSpec) -> str | None:
    """sha256 over the build command and every file matching lab.toml's build_inputs (paths and contents) outside its
    build_ignore folders (the build's own intermediate output);
    None when the lab names no inputs or no output (then it is always rebuilt). The declared models' code is an input
    as it will be written (harness/builds/lab_models.py), whatever its folder holds now."""
    if not lab.build_inputs or not lab.build_output:
        return None
    digest = hashlib.sha256("\0".join(lab.build).encode())
    generated = lab_model_files(lab)
    for name, text in sorted((generated or {}).items()):
        digest.update(f"declared model code {name}\0{text}\0".encode())
    out = (lab.declared_models.out,) if lab.declared_models else ()
    ignored = tuple(lab.directory / folder for folder in lab.build_ignore + out)
    files = sorted(
        {
            f
            for pattern in lab.build_inputs
            for f in lab.directory.glob(pattern)
            if f.is_file() and not any(f.is_relative_to(folder) for folder in ignored)
        }
    )
    for f in files:
        digest.update(f.relative_to(lab.directory).as_posix().encode() + b"\0" + f.read_bytes() + b"\0")
    return digest.hexdigest()


def _is_current(lab: LabSpec, fingerprint: str | None) -> bool:
    """True when the lab's build output holds a build of exactly the inputs with this fingerprint."""
    stamp = lab.directory / lab.build_output / STAMP_FILE
    return fingerprint is not None and stamp.is_file() and stamp.read_text().strip() == fingerprint


def build_lab(lab: LabSpec, log_path: pathlib.Path, say: Callable[[str], None] = _quiet) -> bool:
    """Runs lab.toml's build command in the lab folder, unless its output is current; returns whether it built.
    Raises BuildError with advice on failure."""
    if not lab.build:
        return False
    fingerprint = build_fingerprint(lab)
    if _is_current(lab, fingerprint):
        log_path.write_text(f"build of {lab.target} is current ({lab.build_output}/{STAMP_FILE}); not rebuilt\n")
        return False
    log_path.write_text("")
    write_lab_models(lab)  # the declared models' code, as the fingerprint hashed it
    run_lab_tool(lab, lab.build, log_path, "build", say)
    if fingerprint is not None:
        (lab.directory / lab.build_output / STAMP_FILE).write_text(fingerprint + "\n")
    return True


def run_lab_tool(
    lab: LabSpec, argv: tuple[str, ...], log_path: pathlib.Path, what: str, say: Callable[[str], None] = _quiet
) -> None:
    """Runs one of the lab's toolchain commands (its build, an offline restore) in the lab folder, logging it to
    log_path (appended) and saying how it goes at least every 30 s; BuildError with advice when it cannot start, stalls
    or fails."""
    start = log_path.stat().st_size if log_path.exists() else 0
    try:
        code, _ = run_watched(
            WatchedBuild(list(argv), f"{what} of {lab.target}", (), "done"),
            log_path,
            {},
            lab.directory,
            BUILD_TIMEOUT_S,
            say,
        )
    except FileNotFoundError as e:
        raise BuildError(
            f"cannot run the {what} of lab '{lab.name}': {e}",
            "install the lab's toolchain (scripts/setup; docs/prerequisites.md)",
        ) from e
    if code is None:
        raise BuildError(
            f"the {what} of lab '{lab.name}' took over {BUILD_TIMEOUT_S} s", "run it by hand to see where it stalls"
        )
    if code != 0:
        with log_path.open("rb") as log:
            log.seek(start)
            output = log.read().decode(errors="replace").split("\n", 1)[-1]  # after the "$ command" line
        failure = read_build_failure(output)
        raise BuildError(
            failure.message(f"the {what} of lab '{lab.name}'", f"exit code {code}"),
            f"{failure.advice} (log: {log_path})",
        )
