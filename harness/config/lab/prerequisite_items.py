"""What the lab's prerequisites are (prerequisites.toml and each lab's own, read by harness/config/lab/prerequisites.py):
the needs, each tool or library with how it is found and what installs it, and the whole list.

Standard library only, as its reader: set-up reads the list on a machine that has nothing else yet.
"""

from __future__ import annotations

import fnmatch
import importlib.util
import os
import re
import shutil
from collections.abc import Iterable
from dataclasses import dataclass

from harness.model.errors import UnknownNameError

#: A lab's own needs are called "lab:<name>" (its lab.toml `requires`).
LAB_NEED_PREFIX = "lab:"
#: Where root's PATH finds daemons and system tools that a user's PATH may lack (dockerd, update-binfmts).
SBIN_DIRS = ("/usr/local/sbin", "/usr/sbin", "/sbin")


def lab_need(lab: str) -> str:
    """The need name of a lab's own programs."""
    return f"{LAB_NEED_PREFIX}{lab}"


def find_program(name: str) -> str | None:
    """The program's path on PATH, or in the sbin folders; None when it is in neither."""
    return shutil.which(name) or shutil.which(name, path=os.pathsep.join(SBIN_DIRS))


@dataclass(frozen=True)
class Need:
    """What needs a prerequisite (prerequisites.toml [needs.NAME]), and when a run has that need."""

    name: str
    what: str
    every_run: bool = False
    backend: str | None = None
    measure: str | None = None
    runtime: str | None = None  # a pattern over the runtime names of a run's lab builds ("*-aot")
    includes: tuple[str, ...] = ()
    extra: bool = False

    def applies_to_run(self, backend: str, measures: set[str], runtimes: set[str]) -> bool:
        """True when a run on this backend, measuring these, on lab builds of these runtimes, has this need."""
        if self.every_run:
            return True
        if self.backend is None and self.measure is None and self.runtime is None:
            return False
        return (
            (self.backend is None or self.backend == backend)
            and (self.measure is None or self.measure in measures)
            and (self.runtime is None or any(fnmatch.fnmatchcase(name, self.runtime) for name in runtimes))
        )


@dataclass(frozen=True)
class Prerequisite:
    """One tool or library: the needs it serves, how it is found, what installs it."""

    name: str
    needed_by: tuple[str, ...]
    command: str | None = None
    module: str | None = None
    file: tuple[str, ...] = ()
    version: tuple[str, ...] = ()
    apt: tuple[str, ...] = ()
    npm: tuple[str, ...] = ()
    manual: str = ""
    pypi: str = ""
    pypi_group: str = ""
    optional: str = ""  # what is lost without it; empty: it is required by the needs it serves

    def is_present(self) -> bool:
        """Whether it is here: the program on PATH, the module importable by this interpreter, or one of the files."""
        if self.command:
            return find_program(self.command) is not None
        if self.module:
            return importlib.util.find_spec(self.module) is not None
        return any(os.path.exists(os.path.expanduser(path)) for path in self.file)

    @property
    def install(self) -> str:
        """The command that installs it, or how to get it where no package does."""
        commands = ([f"apt-get install {' '.join(self.apt)}"] if self.apt else []) + (
            [f"npm install -g {' '.join(self.npm)}"] if self.npm else []
        )
        return " && ".join(commands) or self.manual

    @property
    def distribution(self) -> str:
        """Its Python distribution's name (from its pyproject requirement), for a module's version."""
        return re.split(r"[<>=!~;\[ ]", self.pypi)[0] or (self.module or "")


@dataclass(frozen=True)
class Prerequisites:
    """The whole list: the needs by name and the prerequisites in file order."""

    needs: dict[str, Need]
    items: tuple[Prerequisite, ...]

    def need(self, name: str) -> Need:
        """A need by name, or UnknownNameError listing them."""
        if name not in self.needs:
            raise UnknownNameError("need", name, self.needs, "in prerequisites.toml")
        return self.needs[name]

    @property
    def need_names(self) -> tuple[str, ...]:
        """Every need, in file order."""
        return tuple(self.needs)

    @property
    def lab_needs(self) -> tuple[str, ...]:
        """The labs' own needs ("lab:dotnet")."""
        return tuple(name for name in self.needs if name.startswith(LAB_NEED_PREFIX))

    def expand(self, names: Iterable[str]) -> set[str]:
        """These needs and every need they include (patterns such as "lab:*"), transitively."""
        result: set[str] = set()
        pending = list(names)
        while pending:
            name = pending.pop()
            if name in result:
                continue
            result.add(name)
            for pattern in self.need(name).includes:
                pending += [n for n in self.need_names if fnmatch.fnmatchcase(n, pattern)]
        return result

    def set_up_needs(self, extras: bool = False) -> set[str]:
        """What plain set-up installs and plain doctor requires: every need but the extras (all with `extras`)."""
        return {name for name in self.need_names if extras or not self.need(name).extra}

    def serving(self, needs: set[str]) -> list[Prerequisite]:
        """The prerequisites that serve any of these needs, in file order."""
        return [item for item in self.items if needs.intersection(item.needed_by)]

    def for_command(self, program: str) -> Prerequisite | None:
        """The prerequisite found as this program, if the list has one."""
        return next((item for item in self.items if item.command == program), None)
