"""Preflight: whether this machine has what a run needs, checked in seconds, before anything is built or measured.

`check_run` is the check `harness run` makes for exactly its plan: its labs, its backend, whether it has cold-start
cells, which lab builds it makes. `doctor` is `harness doctor`: the prerequisites of prerequisites.toml and of each
lab's own (lab/<lab>/prerequisites.toml) grouped by what needs them, each found (with its version) or missing (with the
command that installs it).
"""

from __future__ import annotations

import importlib.metadata
import pathlib
import shutil
import subprocess
from collections.abc import Iterable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import TYPE_CHECKING

from harness.config.lab.prerequisites import Prerequisite, Prerequisites, lab_need, load_prerequisites
from harness.model.defaults import LABS_DIR
from harness.model.errors import MissingToolError

if TYPE_CHECKING:
    from harness.planning.run_plan import Plan

#: The script that installs every missing package of prerequisites.toml and the labs' own.
SET_UP = "scripts/setup"
#: Seconds a version command may take (a first `dotnet --version` takes about one).
VERSION_TIMEOUT_S = 10


# -- a run's preflight -----------------------------------------------------------------------------------------------


def run_needs(plan: Plan, backend: str, prerequisites: Prerequisites) -> set[str]:
    """The needs of a run: every run's, its backend's, its cells' measures', its lab builds' runtimes', its labs'
    own."""
    measures = {cell.measure for cell in plan.cells if not cell.unavailable}
    runtimes = {build.runtime or "" for build in plan.labs.values()}
    needs = {need.name for need in prerequisites.needs.values() if need.applies_to_run(backend, measures, runtimes)}
    return needs | {lab_need(build.name) for build in plan.labs.values()}


def check_run(plan: Plan, backend: str, prerequisites: Prerequisites | None = None) -> list[str]:
    """Raises MissingToolError naming every prerequisite this run needs and this machine lacks, each with what installs
    it; returns a note for each optional one it lacks."""
    prerequisites = prerequisites or load_prerequisites(labs_dir=labs_dir_of(plan))
    return check_needs(prerequisites, run_needs(plan, backend, prerequisites), "this run")


def labs_dir_of(plan: Plan) -> pathlib.Path:
    """The labs folder the plan's labs come from (each lab's own prerequisites are in its folder); the repository's
    when they come from several or none."""
    folders = {build.directory.parent for build in plan.labs.values()}
    return folders.pop() if len(folders) == 1 else LABS_DIR


def check_needs(prerequisites: Prerequisites, needs: set[str], who: str) -> list[str]:
    """Raises MissingToolError when a required prerequisite of these needs is missing; returns a note for each optional
    one that is."""
    missing = [item for item in prerequisites.serving(needs) if not item.is_present()]
    required = [item for item in missing if not item.optional]
    if required:
        listed = "; ".join(f"{item.name} (for {_need_of(item, needs)}: {item.install})" for item in required)
        raise MissingToolError(f"{who} needs what this machine lacks: {listed}", install_hint(required))
    return [f"{item.name} is not installed ({item.install}): {item.optional}" for item in missing]


def install_hint(missing: Iterable[Prerequisite]) -> str:
    """What installs all of them: one apt-get line, one npm line, then what no package installs; and the set-up."""
    missing = list(missing)
    apt = dict.fromkeys(package for item in missing for package in item.apt)
    npm = dict.fromkeys(package for item in missing for package in item.npm)
    steps = ([f"apt-get install {' '.join(apt)}"] if apt else []) + ([f"npm install -g {' '.join(npm)}"] if npm else [])
    steps += [f"{item.name}: {item.manual}" for item in missing if not item.apt and not item.npm]
    return f"{'; '.join(steps)} (or `{SET_UP}`, which installs every missing package; `just doctor` lists them all)"


def _need_of(item: Prerequisite, needs: set[str]) -> str:
    """The first need of the item that is among these (the one it is listed under)."""
    return next((name for name in item.needed_by if name in needs), item.needed_by[0])


# -- harness doctor --------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Finding:
    """One prerequisite as found here: present or not, whether what was asked requires it, its version."""

    item: Prerequisite
    present: bool
    required: bool
    version: str = ""


def version_of(item: Prerequisite) -> str:
    """Its version: its version command's first line, a module's distribution version, or its Debian package's."""
    if item.version:
        return _first_line(list(item.version))
    if item.module:
        try:
            return importlib.metadata.version(item.distribution)
        except importlib.metadata.PackageNotFoundError:
            return ""
    if item.apt and shutil.which("dpkg-query"):
        return _first_line(["dpkg-query", "-W", "-f=${Version}", item.apt[0]])
    return ""


def _first_line(argv: list[str]) -> str:
    try:
        done = subprocess.run(argv, capture_output=True, text=True, timeout=VERSION_TIMEOUT_S)
    except (OSError, subprocess.TimeoutExpired):
        return ""
    lines = (done.stdout.strip() or done.stderr.strip()).splitlines()
    return lines[0].strip() if done.returncode == 0 and lines else ""


def survey(items: list[Prerequisite], required_needs: set[str], versions: bool) -> list[Finding]:
    """Looks for each item (and, when asked, its version: the version commands run side by side)."""

    def look(item: Prerequisite) -> Finding:
        present = item.is_present()
        required = not item.optional and bool(required_needs.intersection(item.needed_by))
        return Finding(item, present, required, version_of(item) if present and versions else "")

    with ThreadPoolExecutor(max_workers=8) as pool:
        return list(pool.map(look, items))


def _finding_line(finding: Finding, group: str) -> str:
    item = finding.item
    also = [name for name in item.needed_by if name != group]
    suffix = f"  (also {', '.join(also)})" if also else ""
    if finding.present:
        return f"  ok       {item.name:20} {finding.version or 'found'}{suffix}"
    if finding.required:
        return f"  MISSING  {item.name:20} {item.install}{suffix}"
    why = (
        f"optional: {item.optional}" if item.optional else f"not needed by what was asked; `{SET_UP} --all` installs it"
    )
    return f"  absent   {item.name:20} {item.install}  ({why})"


def render_doctor(
    prerequisites: Prerequisites, findings: list[Finding], needs: set[str], scope: str, brief: bool
) -> str:
    """The findings grouped by need (each under its first need among `needs`), then one summary line."""
    groups: dict[str, list[Finding]] = {}
    for finding in findings:
        groups.setdefault(_need_of(finding.item, needs), []).append(finding)
    lines = []
    for name in prerequisites.need_names:
        shown = [f for f in groups.get(name, []) if not brief or not f.present]
        if shown:
            lines.append(f"{name}: {prerequisites.need(name).what}")
            lines += [_finding_line(finding, name) for finding in shown]
    lines.append(_summary(findings, scope))
    return "\n".join(lines)


def _summary(findings: list[Finding], scope: str) -> str:
    found = sum(f.present for f in findings)
    required = [f.item for f in findings if f.required and not f.present]
    absent = sum(not f.present and not f.required for f in findings)
    if required:
        return (
            f"doctor: {scope} lacks {', '.join(item.name for item in required)} ({found} of {len(findings)} found)\n"
            f"install: {install_hint(required)}"
        )
    return f"doctor: {found} of {len(findings)} found; nothing {scope} needs is missing" + (
        f" ({absent} optional or extra absent)" if absent else ""
    )


def doctor(
    needs: Iterable[str] | None = None,
    extras: bool = False,
    brief: bool = False,
    prerequisites: Prerequisites | None = None,
) -> tuple[str, int]:
    """`harness doctor`: its text and exit code (1 when a required prerequisite is missing). Without `needs`: every
    prerequisite, all but the extras required (the extras too with `extras`); with `needs`: only theirs, all required.
    `brief`: no version commands, and only what is missing is listed."""
    prerequisites = prerequisites or load_prerequisites()
    needs = list(needs or ())
    required = prerequisites.expand(needs) if needs else prerequisites.set_up_needs(extras)
    items = prerequisites.serving(required) if needs else list(prerequisites.items)
    findings = survey(items, required, versions=not brief)
    scope = " + ".join(needs) if needs else ("the lab with its extras" if extras else "the lab")
    text = render_doctor(prerequisites, findings, required, scope, brief)
    return text, 1 if any(f.required and not f.present for f in findings) else 0
