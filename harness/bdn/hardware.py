"""Which lab runtimes stand in for a BenchmarkDotNet job (jobs.py): the lab's steady-state builds of the same
version (never a twin), its Native AOT builds for a Native AOT job, and none for a runtime the lab does not build
(.NET Framework, Mono): that job's figures are claims the lab cannot reproduce, never measured on a .NET stand-in."""

from __future__ import annotations

import re
from dataclasses import dataclass

from harness.bdn.jobs import FRAMEWORK, IN_PROCESS, MONO, NATIVE_AOT, JobReading
from harness.config.lab.labs import LabSpec
from harness.model.folder.records import STEADY

#: What a claim that no lab runtime can serve says after "cannot reproduce: ".
NOT_SERVED = "runtime not served"


@dataclass(frozen=True)
class Serving:
    """The lab runtimes standing in for one job, and why (the hardware entry's comment)."""

    runtimes: list[str]  # nearest version first; empty when the user must pick (a TODO) or none can serve
    comment: str
    unserved: str | None = None  # why no lab runtime can: its claims say "cannot reproduce: <this>"


def serve(job: JobReading, sdk: str | None, lab: LabSpec, measure: str = STEADY) -> Serving:
    """The stand-ins of a job's runtime: its family's and toolchain's builds of the nearest version."""
    printed = job.runtime or job.name or "the published runtime"
    steady = ", ".join(lab.runtimes_measuring(measure))
    if job.family in (FRAMEWORK, MONO):
        return Serving(
            [],
            f"no {lab.name} runtime is {job.family}: its claims cannot be reproduced",
            f"{NOT_SERVED}: {printed} is {job.family}, which lab {lab.name} does not build (it builds .NET: {steady}); "
            "a .NET stand-in would measure another runtime",
        )
    if job.toolchain == NATIVE_AOT:
        return _serve_aot(job, lab, measure)
    found = stand_ins(job.runtime, sdk, lab)
    where = (
        "; BenchmarkDotNet ran this job in its own host process (in-process toolchain), the lab runs each cell in a "
        "process of its own"
        if job.toolchain == IN_PROCESS
        else ""
    )
    if found:
        return Serving(
            found, f"the {lab.name} runtimes nearest {job.runtime or 'the SDK'}'s version (all: {steady}){where}"
        )
    return Serving([], f"lab {lab.name} has no runtime of this version; pick the stand-ins from: {steady}{where}")


def _serve_aot(job: JobReading, lab: LabSpec, measure: str) -> Serving:
    """A Native AOT job: the lab's Native AOT builds that measure `measure`, nearest version first."""
    printed = job.runtime or job.name or "a Native AOT runtime"
    aot = [name for name, runtime in lab.runtimes.items() if runtime.values.get("aot") == "true"]
    usable = [name for name in aot if measure in lab.runtimes[name].measures]
    if not usable:
        has = (
            f"its Native AOT build{'s' if len(aot) > 1 else ''} ({', '.join(aot)}) measure only "
            f"{', '.join(sorted({m for n in aot for m in lab.runtimes[n].measures}))}, not {measure}"
            if aot
            else "it has no Native AOT build"
        )
        return Serving(
            [],
            f"no {lab.name} Native AOT build measures {measure}",
            f"{NOT_SERVED}: {printed} (Native AOT) in lab {lab.name}: {has}",
        )
    version = ".".join(re.findall(r"\d+", printed.split("(")[0])[:3])
    found = _nearest(version, usable, lab) if version else []
    if found:
        return Serving(
            found, f"the {lab.name} Native AOT builds nearest {printed}'s version (all: {', '.join(usable)})"
        )
    return Serving([], f"lab {lab.name} has no Native AOT build of this version; pick from: {', '.join(usable)}")


def stand_ins(runtime: str | None, sdk: str | None, lab: LabSpec) -> list[str]:
    """The lab's runtimes that can stand in for a published .NET runtime: the same version, else the same major.minor,
    else the same major (steady-state builds only, never a twin), nearest version first (8.0.31 before 8.0.0 for a
    published 8.0.22); empty when none (or for .NET Framework and Mono)."""
    version = None
    if runtime and runtime.startswith(".NET") and "Framework" not in runtime:
        version = runtime.split()[-1]
    elif runtime is None and sdk:
        version = ".".join(sdk.split(".")[:2])
    if not version:
        return []
    usable = [r for r in lab.runtimes_measuring(STEADY) if not (lab.runtimes.get(r) and lab.runtimes[r].twin_of)]
    return _nearest(version, usable, lab)


def _nearest(version: str, usable: list[str], lab: LabSpec) -> list[str]:
    """Those of `usable` of the same version, else the same major.minor, else the same major, nearest first."""
    numbers = version.split("-")[0].split(".")
    for depth in (len(numbers), 2, 1):
        prefix = numbers[:depth]
        found = [r for r in usable if lab.runtimes.get(r) and lab.runtimes[r].version.split(".")[:depth] == prefix]
        if found:
            return sorted(found, key=lambda r: _distance(lab.runtimes[r].version, numbers))
    return []


def _distance(version: str, published: list[str]) -> tuple[int, ...]:
    """How far a lab runtime's version is from the published one, component by component (a stable sort keeps file
    order between equals)."""
    mine = version.split("-")[0].split(".")
    return tuple(abs(int(a) - int(b)) if a.isdigit() and b.isdigit() else 0 for a, b in zip(mine, published))
