"""A lab's own checks: what `just test` and `just lint` run for it (lab.toml [checks]).

    [checks]
    build_before_test = true     # the harness builds the lab for every runtime first (`harness build --lab NAME`)
    test = ["ctest ..."]         # shell lines, run with bash from the lab's folder, in order
    lint = [{ run = "dotnet format src/X.csproj --verify-no-changes", fix = "dotnet format lab/x/src/X.csproj" }]

`python3 -m harness lab-checks test|lint` runs every lab's (harness/commands/lab_checks.py): the Justfile and CI
name no lab. A lab without [checks] has none; a misspelt key is refused, naming the lab file and the key.
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass

from harness.model.errors import ConfigError

#: The kinds of check a lab may declare, in the order `just test` runs them.
KINDS = ("test", "lint")
_KEYS = {"build_before_test", *KINDS}


@dataclass(frozen=True)
class LabCheck:
    """One shell line of a lab's checks, and what fixes it when it fails (lint: the command that rewrites)."""

    run: str
    fix: str = ""


@dataclass(frozen=True)
class LabChecks:
    """One lab's checks by kind."""

    lab: str
    directory: pathlib.Path
    build_before_test: bool
    test: tuple[LabCheck, ...]
    lint: tuple[LabCheck, ...]

    def of(self, kind: str) -> tuple[LabCheck, ...]:
        return self.test if kind == "test" else self.lint


def _check(item: object, where: str) -> LabCheck:
    if isinstance(item, str) and item.strip():
        return LabCheck(item)
    if isinstance(item, dict) and set(item) <= {"run", "fix"} and isinstance(item.get("run"), str):
        fix = item.get("fix", "")
        if isinstance(fix, str):
            return LabCheck(item["run"], fix)
    raise ConfigError(
        f"{where} is {item!r}",
        'each check is a shell line, or { run = "...", fix = "..." } (harness/config/lab/lab_checks.py)',
    )


def parse_checks(data: dict, path: pathlib.Path) -> LabChecks:
    """The [checks] table of one lab.toml (already read as `data`)."""
    table = data.get("checks", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: [checks] is not a table", "write it as [checks] with test = [...], lint = [...]")
    unknown = sorted(set(table) - _KEYS)
    if unknown:
        raise ConfigError(f"{path}: [checks] has no key {', '.join(unknown)}", f"its keys: {', '.join(sorted(_KEYS))}")
    lists = {}
    for kind in KINDS:
        items = table.get(kind, [])
        if not isinstance(items, list):
            raise ConfigError(f"{path}: [checks] {kind} is not a list", f'write {kind} = ["a shell line", ...]')
        lists[kind] = tuple(_check(item, f"{path}: [checks] {kind}[{i}]") for i, item in enumerate(items))
    build_first = table.get("build_before_test", False)
    if not isinstance(build_first, bool):
        raise ConfigError(f"{path}: [checks] build_before_test is {build_first!r}", "write true or false")
    return LabChecks(str(data.get("name", path.parent.name)), path.parent, build_first, lists["test"], lists["lint"])
