"""Which of a lab's variants may share a paired process with other groups' cells (the paired-shared design).

A lab lists in lab.toml's `unshared_variants` the variant names (fnmatch patterns, settings included) that read
process-wide state another group's members could keep: the .NET lab's System.Text.Json options built inside every
call, which find the metadata of equivalent options another member keeps alive (docs/method.md, "Members that would
measure each other"). A group holding one keeps a process of its own (harness/planning/designs.py).
"""

from __future__ import annotations

import fnmatch
import pathlib

from harness.model.errors import ConfigError

KEY = "unshared_variants"


def parse_unshared_variants(data: dict, path: pathlib.Path) -> tuple[str, ...]:
    """lab.toml's `unshared_variants`: a list of non-empty names or patterns (absent: none)."""
    value = data.get(KEY, [])
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(
            f"{path}: {KEY} must be a list of names", f'e.g. {KEY} = ["stj-case-insensitive-options-per-call"]'
        )
    return tuple(value)


def is_unshared(variant: str, patterns: tuple[str, ...]) -> bool:
    """Whether a variant (its full name, settings included) matches one of the lab's `unshared_variants`."""
    return any(fnmatch.fnmatchcase(variant, pattern) for pattern in patterns)
