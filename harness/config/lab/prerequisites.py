"""The lab's prerequisites: what needs each tool or library, how it is found, what installs it. The repository's
prerequisites.toml holds what is shared (the harness, the report, the backends, the tests); each lab's folder holds its
own (lab/<lab>/prerequisites.toml: its need "lab:<lab>" and what only that lab needs). The list is the repository's
file, then the labs' files by lab name.

Standard library only, so that set-up can read the list on a machine that has nothing else yet:
`python3 -m harness.config.lab.prerequisites missing --apt` prints the Debian packages of what is missing (`--npm`: the
npm packages; `--all`: the extras too), and scripts/setup installs them.
"""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys
from collections.abc import Callable
from dataclasses import fields
from typing import TypeVar

from harness.config.data_files import TomlTable, TomlValue, display, read_toml, toml_array
from harness.config.lab.prerequisite_items import (
    LAB_NEED_PREFIX,
    SBIN_DIRS,
    Need,
    Prerequisite,
    Prerequisites,
    find_program,
    lab_need,
)
from harness.model.defaults import LABS_DIR, PREREQUISITES_FILE
from harness.model.errors import ConfigError, MissingToolError

__all__ = [
    "LAB_NEED_PREFIX",
    "SBIN_DIRS",
    "Need",
    "Prerequisite",
    "Prerequisites",
    "find_program",
    "lab_need",
    "lab_files",
    "load_prerequisites",
    "missing_packages",
    "main",
]

#: A lab's own prerequisites, in its folder (lab/<lab>/prerequisites.toml): its need and what only that lab needs.
LAB_FILE = "prerequisites.toml"
#: The repository's file, of what is shared (as the errors name it).
SHARED = "prerequisites.toml"
SCHEMA_VERSION = 1
_KEYS = {"schema_version", "needs", "prerequisite"}
FIX = "each [needs.NAME] has `what`; each [[prerequisite]] has name and needed_by (docs/prerequisites.md)"
T = TypeVar("T")


def _strings(data: TomlTable, key: str, single: bool = False) -> tuple[str, ...]:
    """A list of strings (or, with `single`, one string standing for a list of it); ValueError naming the key."""
    value: TomlValue = data.get(key, [])
    if single and isinstance(value, str):
        return (value,)
    strings = tuple(v for v in toml_array(value) if isinstance(v, str))
    if not isinstance(value, list) or len(strings) != len(value):
        raise ValueError(f"`{key}` is {value!r}, not a list of strings")
    return strings


def _text(data: TomlTable, key: str) -> str | None:
    """A string, or None when left out; ValueError naming the key when it is another kind of value."""
    value = data.get(key)
    if value is not None and not isinstance(value, str):
        raise ValueError(f"`{key}` is {value!r}, not a string")
    return value


def _table(data: TomlValue, keys: set[str]) -> TomlTable:
    """The entry, a table of these keys only (a misspelt key would be silently ignored); ValueError unless it is."""
    if not isinstance(data, dict):
        raise ValueError(f"it is {data!r}, not a table")
    unknown = sorted(set(data) - keys)
    if unknown:
        raise ValueError(f"unknown key `{unknown[0]}` (the keys are {', '.join(sorted(keys))})")
    return data


def _need(name: str, spec: TomlValue) -> Need:
    data = _table(spec, {field.name for field in fields(Need)} - {"name"})
    return Need(
        name,
        str(data["what"]),
        bool(data.get("every_run", False)),
        _text(data, "backend"),
        _text(data, "measure"),
        _text(data, "runtime"),
        _strings(data, "includes"),
        bool(data.get("extra", False)),
    )


def _prerequisite(spec: TomlValue) -> Prerequisite:
    data = _table(spec, {field.name for field in fields(Prerequisite)})
    if not _strings(data, "needed_by"):
        raise ValueError("`needed_by` names no need")
    return Prerequisite(
        str(data["name"]),
        _strings(data, "needed_by"),
        _text(data, "command"),
        _text(data, "module"),
        _strings(data, "file", single=True),
        _strings(data, "version"),
        _strings(data, "apt"),
        _strings(data, "npm"),
        _text(data, "manual") or "",
        _text(data, "pypi") or "",
        _text(data, "pypi_group") or "",
        _text(data, "optional") or "",
    )


def _entry(where: str, key: str, build: Callable[[], T]) -> T:
    """One entry of a file, built; a missing or malformed field is a ConfigError naming the file and the entry."""
    try:
        return build()
    except KeyError as e:
        raise ConfigError(f"{where}: {key} has no `{e.args[0]}`", FIX) from None
    except (TypeError, ValueError, AttributeError) as e:
        raise ConfigError(f"{where}: {key} is malformed: {e}", FIX) from None


def _item_key(index: int, spec: object) -> str:
    """How an error names a [[prerequisite]]: by its name, else by its place in the file."""
    name = spec.get("name") if isinstance(spec, dict) else None
    return f"[[prerequisite]] {name!r}" if isinstance(name, str) else f"[[prerequisite]] number {index + 1}"


def _read(path: pathlib.Path, lab: str | None) -> tuple[dict[str, Need], list[Prerequisite]]:
    """One file's needs and prerequisites; `lab`: a lab's own file, which holds only that lab's need and what only it
    needs."""
    data = read_toml(path, FIX)
    where = f"lab {lab}: {display(path)}" if lab else display(path)
    unknown = sorted(set(data) - _KEYS)
    if unknown or data.get("schema_version") != SCHEMA_VERSION:
        raise ConfigError(
            f"{where}: " + (f"unknown key `{unknown[0]}`" if unknown else f"schema_version is not {SCHEMA_VERSION}"),
            f"its keys are schema_version = {SCHEMA_VERSION}, [needs.NAME] and [[prerequisite]]",
        )
    raw_needs: TomlValue = data.get("needs", {})
    raw_items: TomlValue = data.get("prerequisite", [])
    if not isinstance(raw_needs, dict) or not isinstance(raw_items, list):
        raise ConfigError(f"{where}: `needs` is not a table or `prerequisite` not an array of tables", FIX)
    needs = {name: _entry(where, f'[needs."{name}"]', lambda: _need(name, spec)) for name, spec in raw_needs.items()}
    items = [
        _entry(where, _item_key(number, spec), lambda: _prerequisite(spec)) for number, spec in enumerate(raw_items)
    ]
    if lab is not None:
        _check_lab_file(where, lab_need(lab), needs, items)
    return needs, items


def _check_lab_file(where: str, own: str, needs: dict[str, Need], items: list[Prerequisite]) -> None:
    """A lab's file declares its own need and serves only it."""
    fix = f'a lab\'s prerequisites.toml declares [needs."{own}"] and what only it needs; the rest goes in {SHARED}'
    for name in needs:
        if name != own:
            raise ConfigError(f'{where}: [needs."{name}"] is not this lab\'s need ("{own}")', fix)
    if own not in needs:
        raise ConfigError(f'{where}: no [needs."{own}"]', fix)
    for item in items:
        if item.needed_by != (own,):
            raise ConfigError(
                f'{where}: [[prerequisite]] {item.name!r} has needed_by = {list(item.needed_by)}, not ["{own}"]', fix
            )


def lab_files(labs_dir: pathlib.Path = LABS_DIR) -> list[tuple[pathlib.Path, str]]:
    """Each lab's own prerequisites.toml with the lab's name (its folder's), in the order of the names."""
    found = []
    for path in sorted(labs_dir.glob(f"*/{LAB_FILE}")):
        if not (path.parent / "lab.toml").is_file():
            raise ConfigError(
                f"{display(path)} has no lab.toml beside it", f"move it into its lab's folder: lab/<lab>/{LAB_FILE}"
            )
        found.append((path, path.parent.name))
    return found


def load_prerequisites(path: pathlib.Path = PREREQUISITES_FILE, labs_dir: pathlib.Path = LABS_DIR) -> Prerequisites:
    """Reads prerequisites.toml, then each lab's own (lab/<lab>/prerequisites.toml, by lab name): the needs and the
    prerequisites in that order. A need or prerequisite named twice is refused, naming both files."""
    needs: dict[str, Need] = {}
    items: list[Prerequisite] = []
    seen: dict[tuple[str, str], str] = {}
    for file, lab in [(path, None), *lab_files(labs_dir)]:
        file_needs, file_items = _read(file, lab)
        keys = [("need", name) for name in file_needs] + [("prerequisite", item.name) for item in file_items]
        for kind, name in keys:
            if (kind, name) in seen:
                raise ConfigError(
                    f"{'lab ' + lab + ': ' if lab else ''}{display(file)}: {kind} {name!r} is also in "
                    f"{seen[kind, name]}",
                    f"keep it in one file: a lab's own in lab/<lab>/{LAB_FILE}, a shared one in {SHARED}",
                )
            seen[kind, name] = display(file)
        needs.update(file_needs)
        items += file_items
    return Prerequisites(needs, tuple(items))


def missing_packages(prerequisites: Prerequisites, needs: set[str], manager: str) -> list[str]:
    """The packages of one manager ("apt" or "npm") that install the missing prerequisites of these needs, each once."""
    packages = [
        package for item in prerequisites.serving(needs) if not item.is_present() for package in getattr(item, manager)
    ]
    return list(dict.fromkeys(packages))


def main(argv: list[str] | None = None) -> int:
    """`python3 -m harness.config.lab.prerequisites missing --apt|--npm [--all]`: what set-up has to install,
    space-separated."""
    parser = argparse.ArgumentParser(prog="python3 -m harness.config.lab.prerequisites", description=main.__doc__)
    parser.add_argument("action", choices=["missing"])
    manager = parser.add_mutually_exclusive_group(required=True)
    manager.add_argument("--apt", dest="manager", action="store_const", const="apt", help="Debian packages")
    manager.add_argument("--npm", dest="manager", action="store_const", const="npm", help="global npm packages")
    parser.add_argument("--all", action="store_true", help="the extras too (as CI installs them)")
    args = parser.parse_args(argv)
    prerequisites = load_prerequisites()
    print(" ".join(missing_packages(prerequisites, prerequisites.set_up_needs(args.all), args.manager)))
    return 0


if __name__ == "__main__":
    sys.exit(main())


def require_programs(who: str, programs: tuple[str, ...], labs_dir: pathlib.Path = LABS_DIR) -> None:
    """Raises MissingToolError naming every one of `programs` not on PATH, with what installs each (prerequisites.toml
    and the labs' own, under `labs_dir`)."""
    missing = [program for program in programs if shutil.which(program) is None]
    if missing:
        prerequisites = load_prerequisites(labs_dir=labs_dir)
        fixes = [
            (item.install if (item := prerequisites.for_command(program)) else f"install {program}")
            for program in missing
        ]
        raise MissingToolError(
            f"{who} needs {', '.join(repr(program) for program in missing)}, not on PATH",
            f"{'; '.join(fixes)}; or run another lab (`just doctor` lists everything the lab needs)",
        )
