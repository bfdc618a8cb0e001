"""Errors a user can act on: one HarnessError base, one subclass per case, each with a hint.

The CLI prints `error:` and `hint:` lines for these and exits non-zero; any other exception
is a bug and keeps its traceback.
"""

from __future__ import annotations

import difflib
import importlib
import sys
from collections.abc import Iterable


class HarnessError(Exception):
    """Base of every error the harness explains to the user."""

    def __init__(self, message: str, hint: str) -> None:
        super().__init__(message)
        self.hint = hint


def unknown_name(kind: str, name: str, valid: Iterable[str], where: str = "") -> tuple[str, str]:
    """Builds (message, hint) for an unknown name, suggesting near spellings."""
    valid = list(valid)
    close = difflib.get_close_matches(name, valid, n=1)
    suffix = f" (did you mean '{close[0]}'?)" if close else ""
    message = f"unknown {kind} '{name}'{' ' + where if where else ''}{suffix}"
    return message, f"valid: {', '.join(valid)}"


class UnknownNameError(HarnessError):
    """An experiment, profile, variant, benchmark, lab or ISA level that does not exist."""

    def __init__(self, kind: str, name: str, valid: Iterable[str], where: str = "") -> None:
        super().__init__(*unknown_name(kind, name, valid, where))


class ConfigError(HarnessError):
    """A data file (experiment, profile, lab, ISA table, manifest) that is malformed."""


class DatasetError(HarnessError):
    """A dataset file that is missing or whose bytes do not match the manifest."""


class MissingToolError(HarnessError):
    """A program the run needs (dotnet, taskset) is not on PATH."""


class BuildError(HarnessError):
    """A lab failed to build."""


class OutputDirError(HarnessError):
    """The results folder cannot be created or written."""


class PinningError(HarnessError):
    """A CPU set that does not exist or is not allowed for this process."""


class ResumeError(HarnessError):
    """A run that cannot be resumed as asked."""


class CellError(HarnessError):
    """One cell failed; recorded in its row, the run goes on."""


class SchemaError(HarnessError):
    """A results file written by an incompatible harness version."""


#: The lab's own packages: a missing one of these is a broken checkout, not a missing library.
OWN_PACKAGES = ("harness", "analysis", "tests")
#: The interpreter the lab is installed for (its libraries are Debian's python3-* packages).
DEBIAN_PYTHON = "/usr/bin/python3"


def missing_library(error: ModuleNotFoundError, python: str) -> tuple[str, str] | None:
    """(message, hint) for a Python library this interpreter lacks (scipy under a Python that is not Debian's, say);
    None for a module of the lab's own, whose absence is a bug to show with its traceback."""
    name = (error.name or "").split(".")[0]
    if not name or name in OWN_PACKAGES:
        return None
    debian = f"python3-{name.lower()}"
    hint = (
        f"install it with `scripts/setup` (or `apt-get install {debian}`)"
        if python == DEBIAN_PYTHON
        else f"run the lab with Debian's {DEBIAN_PYTHON} (`scripts/setup` installs its python3-* packages, and the "
        "Justfile uses it), or install the dependencies of pyproject.toml into this Python"
    )
    return f"this Python ({python}) has no module '{name}', which the lab needs", hint


def run_cli(package: str) -> int:
    """`python3 -m <package>`: its cli's main(), or, under a Python that lacks one of the lab's libraries, an `error:`
    and `hint:` line and exit status 2 instead of a traceback."""
    try:
        return int(importlib.import_module(f"{package}.cli").main())
    except ModuleNotFoundError as error:
        explained = missing_library(error, sys.executable)
        if explained is None:
            raise
        print(f"error: {explained[0]}\nhint: {explained[1]}", file=sys.stderr)
        return 2
