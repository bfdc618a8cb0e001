"""Planning: experiments × benchmarks × ISA levels → the ordered list of cells of a run."""

from __future__ import annotations

from harness.errors import UnknownNameError
from harness.experiments import Benchmark, Experiment
from harness.isa import IsaLevel, IsaTable
from harness.records import Cell

#: ISA level names a profile may use besides the levels themselves: every level of this CPU, or the levels
#: matching the CPUs each experiment's claims were published on (their hardware's isa_level).
ALL_LEVELS = "all"
CLAIMED_LEVELS = "claims"


def levels_by_benchmark(isa: IsaTable, arch: str, names: list[str], experiments: list[Experiment]) -> dict[tuple[str, str], list[IsaLevel]]:
    """The ISA levels each (experiment, benchmark) runs at, in the order of the ISA table.

    A level name or "all" applies to every benchmark. "claims" gives each benchmark the levels its published figures
    need: the level matching the published CPU, or for a ratio across levels both of its levels; a benchmark no figure
    names gets its experiment's published-CPU levels. A group's baseline runs wherever any of its group does."""
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
                levels = {c.isa_level, c.reference_isa_level} if c.across_levels else {exp.hardware[c.hardware].isa_level}
                for bench in (c.benchmark, c.reference):
                    claimed.setdefault(bench, set()).update(levels)
            fallback = {exp.hardware[c.hardware].isa_level for c in exp.claims if not c.across_levels and not c.cannot_reproduce} or {"native"}
        for bench in exp.benchmarks:
            wanted[(exp.id, bench)] = for_all | (claimed.get(bench, fallback) if CLAIMED_LEVELS in names else set())
        for bench in exp.benchmarks.values():
            wanted[(exp.id, exp.baseline_of(bench.id))] |= wanted[(exp.id, bench.id)]
    return {key: [level for level in known.values() if level.name in names_] for key, names_ in wanted.items()}


def claimed_benchmarks(experiments: list[Experiment]) -> tuple[str, ...]:
    """Benchmarks some published figure refers to (as the measured benchmark or as its reference)."""
    return tuple(dict.fromkeys(name for exp in experiments for c in exp.claims if not c.cannot_reproduce for name in (c.benchmark, c.reference)))


def _check_filter(kind: str, wanted: tuple[str, ...] | None, known: set[str]) -> None:
    for name in wanted or ():
        if name not in known:
            raise UnknownNameError(kind, name, sorted(known), "in the selected experiments")


def _selected(exp: Experiment, benchmarks: tuple[str, ...] | None, variants: tuple[str, ...] | None) -> list[Benchmark]:
    """Benchmarks passing both filters, plus the baselines they need so ratios stay computable."""
    chosen = {b.id for b in exp.benchmarks.values()
              if (benchmarks is None or b.id in benchmarks) and (variants is None or b.variant in variants)}
    chosen |= {exp.baseline_of(b) for b in chosen}
    return [b for b in exp.benchmarks.values() if b.id in chosen]


def plan_cells(experiments: list[Experiment], levels: list[IsaLevel], benchmarks: tuple[str, ...] | None = None,
               variants: tuple[str, ...] | None = None, per_benchmark: dict[tuple[str, str], list[IsaLevel]] | None = None) -> list[Cell]:
    """Cells in run order: `levels` in order, each benchmark at the levels `per_benchmark` gives it (default: all).
    The ISA level is the outer loop so that the cells whose ratios are compared (same level, same group) run close
    together in time."""
    _check_filter("benchmark", benchmarks, {b for exp in experiments for b in exp.benchmarks})
    _check_filter("variant", variants, {b.variant for exp in experiments for b in exp.benchmarks.values()})
    return [Cell(exp.id, bench.id, bench.group, exp.baseline_of(bench.id), bench.lab, bench.variant, bench.dataset,
                 bench.operation, level.name, bench.unavailable)
            for level in levels for exp in experiments for bench in _selected(exp, benchmarks, variants)
            if per_benchmark is None or level in per_benchmark[(exp.id, bench.id)]]


def datasets_of(cells: list[Cell]) -> list[str]:
    """Distinct datasets the cells read, in first-use order."""
    return list(dict.fromkeys(c.dataset for c in cells))


def labs_of(cells: list[Cell]) -> list[str]:
    """Distinct labs the cells use, in first-use order."""
    return list(dict.fromkeys(c.lab for c in cells))
