"""Errors a user can act on: one HarnessError base, one subclass per case, each with a hint.

The CLI prints `error:` and `hint:` lines for these and exits non-zero; any other exception
is a bug and keeps its traceback.
"""

from __future__ import annotations

import difflib
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
