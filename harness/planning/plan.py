"""Planning: experiments × benchmarks × ISA levels × runtimes → the ordered list of cells of a run."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from harness.config.experiment.profiles import (
    ALL_LEVELS,
    ALL_RUNTIMES,
    CLAIMED_LEVELS,
    CLAIMED_RUNTIMES,
    SWEEP_RUNTIMES,
)
from harness.config.isa import IsaLevel, IsaTable
from harness.config.lab.labs import LabSpec
from harness.config.lab.library_builds import canonical
from harness.config.lab.library_switches import PUBLISHER_VERSIONS, switched_builds
from harness.model.cells import Cell
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.experiment import Benchmark, Experiment
from harness.model.folder.records import DEFAULT_RUNTIME, STEADY
from harness.model.groups import AA_SUFFIX, GroupKey
from harness.planning.designs import group_key


def runtimes_by_benchmark(
    labs: dict[str, LabSpec], names: list[str], experiments: list[Experiment]
) -> dict[tuple[str, str], list[str]]:
    """The runtimes each (experiment, benchmark) runs on, in the order of its lab's runtimes.

    A runtime name or "all" applies to every benchmark of a lab that has it; "claims" gives each benchmark the runtime
    standing in for the runtime of each figure naming it (a benchmark no figure names: those of its experiment's
    figures, as for ISA levels); "sweep" adds
    the lab's sweep runtimes (lab.toml: all but `sweep = false`) for the experiment's runtime_sweep benchmarks. A
    group's baseline runs wherever any of its group does.
    A runtime name applies to the labs that have it (a profile may name .NET and Node runtimes); one no selected lab has
    is an error."""
    wanted: dict[tuple[str, str], set[str]] = {}
    involved = {labs[bench.lab].name: labs[bench.lab] for exp in experiments for bench in exp.benchmarks.values()}
    known = {runtime for lab in involved.values() for runtime in lab.runtime_names}
    for exp in experiments:
        measured = [c for c in exp.claims if not c.cannot_reproduce]
        claimed: dict[str, set[str]] = {}
        for c in measured:
            lab = labs[exp.benchmarks[c.benchmark].lab]
            published = exp.hardware[c.hardware].stand_in(lab.runtime_names, lab.default_runtime)
            # a ratio across runtimes reads its benchmark and its reference on the runtimes it names
            claimed.setdefault(c.benchmark, set()).add(c.side("runtime", published))
            claimed.setdefault(c.reference, set()).add(c.reference_side("runtime", published))
        for bench in exp.benchmarks.values():
            lab = labs[bench.lab]
            fallback = {
                exp.hardware[c.hardware].stand_in(lab.runtime_names, lab.default_runtime) for c in measured
            } or {lab.default_runtime}
            if bench.runtimes:
                wanted[(exp.id, bench.id)] = _pinned(exp, bench, lab, names)
                continue
            chosen: set[str] = set()
            for name in map(canonical, names):  # library versions in package order, as the lab knows the build
                if name == ALL_RUNTIMES:
                    chosen |= set(lab.own_runtime_names)
                elif name == PUBLISHER_VERSIONS:  # each claimed runtime, and it with each of the write-up's versions
                    claimed_here = claimed.get(bench.id, fallback)
                    chosen |= claimed_here | {b for r in claimed_here for b in switched_builds(exp, lab, r)}
                elif name == SWEEP_RUNTIMES and bench.id in exp.runtime_sweep:
                    chosen |= set(lab.sweep_runtime_names)
                elif name == CLAIMED_RUNTIMES:
                    chosen |= claimed.get(bench.id, fallback)
                elif name in lab.runtime_names:
                    chosen.add(name)
                elif name not in known and name not in (SWEEP_RUNTIMES, PUBLISHER_VERSIONS):
                    raise UnknownNameError(
                        "runtime",
                        name,
                        [*sorted(known), ALL_RUNTIMES, CLAIMED_RUNTIMES, SWEEP_RUNTIMES, PUBLISHER_VERSIONS],
                        f"for lab{'s' if len(involved) > 1 else ''} {', '.join(involved)}",
                    )
            wanted[(exp.id, bench.id)] = chosen & set(lab.runtimes_measuring(exp.measure))
        for bench in exp.benchmarks.values():
            wanted[(exp.id, exp.baseline_of(bench.id))] |= wanted[(exp.id, bench.id)]
    by_id = {exp.id: exp for exp in experiments}
    return {
        (e, b): [r for r in labs[by_id[e].benchmarks[b].lab].runtime_names if r in names_]
        for (e, b), names_ in wanted.items()
    }


def _pinned(exp: Experiment, bench: Benchmark, lab: LabSpec, names: list[str]) -> set[str]:
    """A benchmark that names its runtimes (a Native AOT build) runs on those: all of them for the profile's tokens
    (claims, sweep, all), the ones also named when runtimes are named."""
    for name in bench.runtimes:
        if name not in lab.runtime_names:
            raise UnknownNameError("runtime", name, lab.runtime_names, f"(benchmark {bench.id} in experiment {exp.id})")
        if exp.measure not in lab.runtimes[name].measures:
            raise ConfigError(
                f"benchmark {bench.id} in experiment {exp.id} is pinned to runtime {name}, which cannot measure "
                f"{exp.measure}",
                f"runtime {name} measures {', '.join(lab.runtimes[name].measures)} (lab/{lab.name}/lab.toml)",
            )
    tokens = {ALL_RUNTIMES, CLAIMED_RUNTIMES, SWEEP_RUNTIMES, PUBLISHER_VERSIONS}
    return set(bench.runtimes) if any(name in tokens for name in names) else set(bench.runtimes) & set(names)


def levels_by_benchmark(
    isa: IsaTable, arch: str, names: list[str], experiments: list[Experiment]
) -> dict[tuple[str, str], list[IsaLevel]]:
    """The ISA levels each (experiment, benchmark) runs at, in the order of the ISA table.

    A level name or "all" applies to every benchmark. "claims" gives each benchmark the levels its published figures
    need: the level matching the published CPU, or for a ratio across cell dimensions the levels it names for each
    side; a benchmark no figure names gets its experiment's published-CPU levels. A group's baseline runs wherever any
    of its group does."""
    known = isa.levels_for(arch)
    wanted: dict[tuple[str, str], set[str]] = {}
    for exp in experiments:
        for_all: set[str] = set()
        for name in names:
            if name == ALL_LEVELS:
                for_all |= set(known)
            elif name != CLAIMED_LEVELS:
                for_all |= {level.name for level in isa.resolve(arch, [name])}
        claimed: dict[str, set[str]] = {}
        if CLAIMED_LEVELS in names:
            for c in exp.claims:
                if c.cannot_reproduce:
                    continue
                published = exp.hardware[c.hardware].isa_level
                claimed.setdefault(c.benchmark, set()).add(c.side("isa_level", published))
                claimed.setdefault(c.reference, set()).add(c.reference_side("isa_level", published))
            fallback = {
                exp.hardware[c.hardware].isa_level
                for c in exp.claims
                if "isa_level" not in dict(c.at) and not c.cannot_reproduce
            } or {"native"}
        for bench_id in exp.benchmarks:
            wanted[(exp.id, bench_id)] = for_all | (
                claimed.get(bench_id, fallback) if CLAIMED_LEVELS in names else set()
            )
        for bench in exp.benchmarks.values():
            wanted[(exp.id, exp.baseline_of(bench.id))] |= wanted[(exp.id, bench.id)]
    return {key: [level for level in known.values() if level.name in names_] for key, names_ in wanted.items()}


def claimed_benchmarks(experiments: list[Experiment]) -> tuple[str, ...]:
    """Benchmarks some published figure refers to (as the measured benchmark or as its reference); an experiment with no
    published figures (the lab's own, such as cold starts) keeps all its benchmarks."""
    return tuple(
        dict.fromkeys(
            [
                name
                for exp in experiments
                for c in exp.claims
                if not c.cannot_reproduce
                for name in (c.benchmark, c.reference)
            ]
            + [name for exp in experiments if not exp.claims for name in exp.benchmarks]
        )
    )


def _check_filter(kind: str, wanted: tuple[str, ...] | None, known: set[str]) -> None:
    for name in wanted or ():
        if name not in known:
            raise UnknownNameError(kind, name, sorted(known), "in the selected experiments")


def _selected(exp: Experiment, benchmarks: tuple[str, ...] | None, variants: tuple[str, ...] | None) -> list[Benchmark]:
    """Benchmarks passing both filters, plus the baselines they need so ratios stay computable."""
    chosen = {
        b.id
        for b in exp.benchmarks.values()
        if (benchmarks is None or b.id in benchmarks) and (variants is None or b.variant in variants)
    }
    chosen |= {exp.baseline_of(b) for b in chosen}
    return [b for b in exp.benchmarks.values() if b.id in chosen]


def plan_cells(
    experiments: list[Experiment],
    levels: list[IsaLevel],
    benchmarks: tuple[str, ...] | None = None,
    variants: tuple[str, ...] | None = None,
    per_benchmark: dict[tuple[str, str], list[IsaLevel]] | None = None,
    runtimes: dict[tuple[str, str], list[str]] | None = None,
) -> list[Cell]:
    """Cells in run order: `levels` in order, each benchmark at the levels `per_benchmark` gives it (default: all) and
    on the runtimes `runtimes` gives it (default: its lab's default build). The ISA level is the outer loop, then the
    runtime, so that the cells whose ratios are compared (same level, runtime and group) run close together in time."""
    _check_filter("benchmark", benchmarks, {b for exp in experiments for b in exp.benchmarks})
    _check_filter("variant", variants, {b.variant for exp in experiments for b in exp.benchmarks.values()})
    runtime_order = list(dict.fromkeys(r for names in (runtimes or {}).values() for r in names)) or [DEFAULT_RUNTIME]
    return [
        Cell(
            exp.id,
            bench.id,
            bench.group,
            exp.baseline_of(bench.id),
            bench.lab,
            bench.variant,
            bench.dataset,
            bench.operation,
            level.name,
            bench.unavailable,
            runtime,
            exp.measure,
            exp.settings_of(bench.id),
            exp.single_shot,
        )
        for level in levels
        for runtime in runtime_order
        for exp in experiments
        for bench in _selected(exp, benchmarks, variants)
        if (per_benchmark is None or level in per_benchmark[(exp.id, bench.id)])
        and (runtime in runtimes[(exp.id, bench.id)] if runtimes else runtime == DEFAULT_RUNTIME)
    ]


def datasets_of(cells: list[Cell]) -> list[str]:
    """Distinct datasets the cells read, in first-use order."""
    return list(dict.fromkeys(c.dataset for c in cells))


def labs_of(cells: list[Cell]) -> list[str]:
    """Distinct labs the cells use, in first-use order."""
    return list(dict.fromkeys(c.lab for c in cells))


def builds_of(cells: list[Cell], labs: dict[str, LabSpec]) -> dict[str, LabSpec]:
    """The lab builds the cells run on, by target name (Cell.target), in first-use order."""
    return {c.target: labs[c.lab].for_runtime(c.runtime) for c in cells}


def with_aa_copies(cells: list[Cell], can_pair: Callable[[Cell], bool]) -> list[Cell]:
    """The cells and, after each steady-state group of two or more cells whose lab can pair them in one process, an A/A
    copy of the group's baseline: the same variant, dataset and operation bound a second time in the same process,
    measured as one more member. No claim names it; its ratio to the baseline is the check that the paired engine has no
    order or position bias (README "Noise and replication")."""
    out: list[Cell] = []
    groups: dict[GroupKey, list[Cell]] = {}
    for cell in cells:
        groups.setdefault(group_key(cell), []).append(cell)
    added: set[GroupKey] = set()
    for cell in cells:
        out.append(cell)
        key = group_key(cell)
        members = groups[key]
        if key in added or cell is not members[-1] or cell.measure != STEADY or len(members) < 2 or not can_pair(cell):
            continue
        if cell.switched:  # a place switched for an explanation: its ratios are compared, the engine checked elsewhere
            continue
        baseline = next((c for c in members if c.benchmark == c.baseline), None)
        if baseline is not None and not baseline.unavailable:
            out.append(dataclasses.replace(baseline, benchmark=baseline.benchmark + AA_SUFFIX))
            added.add(key)
    return out
