"""The runtimes with library versions a run needs (config/lab/library_builds.py), and the explanation's switches: for a
write-up, each of its library versions that differs from the lab's own, one at a time, as a build of the runtime a
figure is read on. A profile asks for them with the runtime token "publisher-versions" (profile `explain`)."""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from harness.config.lab.lab_libraries import library_versions
from harness.config.lab.labs import LabSpec
from harness.config.lab.library_builds import build_name, canonical
from harness.model.experiment import Experiment

#: The profile runtime token: each claimed runtime, and that runtime with each of the write-up's library versions.
PUBLISHER_VERSIONS = "publisher-versions"
#: A published version that is a version (not "in-box, .NET 8.0.0" or "not stated").
_VERSION = re.compile(r"[0-9][0-9A-Za-z.+-]{0,63}")


def own_versions(lab: LabSpec, runtime: str) -> dict[str, str]:
    """The versions the lab's own build of `runtime` pins ({} where it declares none)."""
    build = lab.for_runtime(runtime)
    pins = library_versions(build.name, build.directory, build.libraries)
    return dict(item.split("=", 1) for item in pins.split(",") if "=" in item)


def version_switches(exp: Experiment, lab: LabSpec, runtime: str) -> list[tuple[str, str, str]]:
    """(package, the lab's version, the write-up's) for each package the lab lets vary (its [library_versions], those
    with a role excepted) whose published version differs from the one the lab's build of `runtime` pins."""
    spec = lab.library_versions
    if spec is None or lab.runtimes.get(runtime) is None or lab.runtimes[runtime].libraries:
        return []
    own = own_versions(lab, runtime)
    return [
        (package, own.get(package, "?"), published)
        for package, published in exp.published_versions.items()
        if package in spec.packages
        and package not in spec.roles
        and _VERSION.fullmatch(published)
        and own.get(package) != published
    ]


def switched_builds(exp: Experiment, lab: LabSpec, runtime: str) -> list[str]:
    """The builds of `runtime`, each with one of the write-up's library versions (version_switches)."""
    return [
        build_name(runtime, ((package, published),)) for package, _, published in version_switches(exp, lab, runtime)
    ]


def with_runtimes(
    labs: dict[str, LabSpec], names: Iterable[str], experiments: Iterable[Experiment] = ()
) -> dict[str, LabSpec]:
    """The labs with every runtime with library versions a run names (asked for, named by the experiments, or, with
    the token publisher-versions, each experiment's switches of every runtime of its labs) among their runtimes."""
    names, experiments = [canonical(name) for name in names], list(experiments)
    named = [*names, *(runtime for exp in experiments for runtime in exp.named_runtimes())]
    labs = {name: functools.reduce(LabSpec.with_runtime, named, lab) for name, lab in labs.items()}
    if PUBLISHER_VERSIONS not in names:
        return labs
    for exp in experiments:
        for name in {bench.lab for bench in exp.benchmarks.values()} & set(labs):
            lab = labs[name]
            switched = [b for runtime in lab.own_runtime_names for b in switched_builds(exp, lab, runtime)]
            labs[name] = functools.reduce(LabSpec.with_runtime, switched, lab)
    return labs
