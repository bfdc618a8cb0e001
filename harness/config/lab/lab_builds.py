"""What a lab.toml says about its builds: each runtime the lab is built for (its [runtimes] tables over
[runtime_defaults]) and how the lab is built as an image (its [container] table), as records and as read from the file.
They are separate from harness/config/lab/labs.py, which holds the lab's descriptor, fills these templates in for one build
and finds every lab; this module only reads the two tables.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from dataclasses import dataclass, field

from harness.model.errors import UnknownNameError
from harness.model.folder.records import COLD, MEASURES, STEADY

#: What a lab's build measures unless lab.toml says otherwise ([runtime_defaults] or a runtime's `measures`): single
#: shots need the lab's `shot` verb, which a lab declares it has.
DEFAULT_MEASURES = (STEADY, COLD)


@dataclass(frozen=True)
class LabRuntime:
    """One runtime a lab is built for: its name in experiments and profiles, the exact version the build pins
    (and the process must report), template values for the build, and extra environment."""

    name: str
    version: str
    values: dict[str, str]
    environment: dict[str, str]
    note: str = ""
    sweep: bool = True  # part of a runtime sweep (lab.toml `sweep = false`: only by name or with "all")
    measures: tuple[
        str, ...
    ] = DEFAULT_MEASURES  # what this build can measure (MEASURES): steady state, cold starts, single shots
    # The runtime's name as the lab's `env` verb reports it, the key of its [isa_switches] tables (".NET", "GCC",
    # "GCC (-march=native)"): with it a plan knows before anything runs which ISA levels the build cannot honour.
    # None: known only once the build runs.
    reports: str | None = None
    # Library versions other than the lab's own (harness/config/lab/library_builds.py): (package, version), package order.
    libraries: tuple[tuple[str, str], ...] = ()
    # lab.toml `twin_of`: this build is a second build of that runtime, measured beside it for an A/A across two builds;
    # never a stand-in for a published runtime.
    twin_of: str | None = None


@dataclass(frozen=True)
class ContainerSpec:
    """lab.toml [container]: the Dockerfile (relative to the lab folder), its build arguments (templates, filled in per
    runtime), the folder lab.toml's command runs from inside the image, the locally built bases that stand in for the
    Dockerfile's base-image arguments where no registry answers, and the NuGet configuration of an offline build."""

    dockerfile: str
    workdir: str
    build_args: dict[str, str]
    local_bases: dict[str, str] = field(default_factory=dict)
    offline_nuget_config: str | None = None
    offline_seed: str | None = None
    offline_lock_files: tuple[str, ...] = ()
    offline_packs: tuple[str, ...] = ()
    # The command (a template, run in the lab folder) that downloads what an offline image build of one runtime needs
    # into this host's package cache, without compiling anything; empty: the lab's build on this host does it.
    offline_restore: tuple[str, ...] = ()
    # A command (a template, run in the lab folder) that makes what every image build of one runtime copies from the lab
    # folder, whatever the bases (the Node lab's node_modules); empty: nothing.
    prepare: tuple[str, ...] = ()
    # Files the image holds beyond the build's inputs (globs in the lab folder): a change rebuilds the image.
    inputs: tuple[str, ...] = ()
    # The platforms the Dockerfile can build for (compose.yaml's `platforms`).
    platforms: tuple[str, ...] = ("linux/amd64", "linux/arm64")
    # Seconds one image of this lab takes to build from an empty image store, its preparation included (a template:
    # a runtime may differ), as measured on the machine lab.toml names; the plan's estimate of builds.
    build_estimate_s: str = "60"

    def filled(
        self, fill: Callable[[str], str], lock_files: tuple[str, ...], arguments: tuple[str, ...]
    ) -> ContainerSpec:
        """One build's: its templates filled in, its further lock files and build-command arguments added."""
        return dataclasses.replace(
            self,
            offline_lock_files=self.offline_lock_files + lock_files,
            build_args={k: fill(v) for k, v in self.build_args.items()},
            offline_restore=tuple(fill(a) for a in self.offline_restore) + arguments,
            prepare=tuple(fill(a) for a in self.prepare),
            build_estimate_s=fill(self.build_estimate_s),
        )


def parse_runtime(name: str, spec: dict, defaults: dict) -> LabRuntime:
    """One runtime of lab.toml's [runtimes] (`spec`), over its [runtime_defaults] (`defaults`)."""
    values = {
        k: str(v)
        for k, v in {**defaults, **spec}.items()
        if k not in ("version", "environment", "note", "sweep", "measures", "reports", "twin_of")
    }
    measures = tuple(spec.get("measures", defaults.get("measures", DEFAULT_MEASURES)))
    for measure in measures:
        if measure not in MEASURES:
            raise UnknownNameError("measure", measure, MEASURES, f"for runtime {name}")
    return LabRuntime(
        name,
        str(spec["version"]),
        values,
        {k: str(v) for k, v in spec.get("environment", {}).items()},
        spec.get("note", ""),
        bool(spec.get("sweep", True)),
        measures,
        spec.get("reports", defaults.get("reports")),
        twin_of=spec.get("twin_of"),
    )


def parse_runtimes(data: dict, defaults: dict) -> dict[str, LabRuntime]:
    """lab.toml's [runtimes] over its [runtime_defaults]; a twin must name a runtime of the table."""
    runtimes = {name: parse_runtime(name, spec, defaults) for name, spec in data.items()}
    for r in runtimes.values():
        if r.twin_of is not None and r.twin_of not in runtimes:
            raise UnknownNameError("runtime", r.twin_of, sorted(runtimes), f"(twin_of of runtime {r.name})")
    return runtimes


def parse_container(data: dict) -> ContainerSpec:
    """lab.toml's [container] table."""
    return ContainerSpec(
        data["dockerfile"],
        data.get("workdir", "/"),
        {k: str(v) for k, v in data.get("build_args", {}).items()},
        {k: str(v) for k, v in data.get("local_bases", {}).items()},
        data.get("offline_nuget_config"),
        data.get("offline_seed"),
        tuple(data.get("offline_lock_files", [])),
        tuple(data.get("offline_packs", [])),
        tuple(data.get("offline_restore", [])),
        tuple(data.get("prepare", [])),
        tuple(data.get("inputs", [])),
        tuple(data.get("platforms", ("linux/amd64", "linux/arm64"))),
        str(data.get("build_estimate_s", "60")),
    )
