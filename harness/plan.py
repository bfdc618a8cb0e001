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


def levels_by_experiment(isa: IsaTable, arch: str, names: list[str], experiments: list[Experiment]) -> dict[str, list[IsaLevel]]:
    """The ISA levels each experiment runs at, in the order of the ISA table."""
    known = isa.levels_for(arch)
    out: dict[str, list[IsaLevel]] = {}
    for exp in experiments:
        wanted: set[str] = set()
        for name in names:
            if name == ALL_LEVELS:
                wanted |= set(known)
            elif name == CLAIMED_LEVELS:
                wanted |= {exp.hardware[c.hardware].isa_level for c in exp.claims} or {"native"}
            else:
                wanted |= {level.name for level in isa.resolve(arch, [name])}
        out[exp.id] = [level for level in known.values() if level.name in wanted]
    return out


def claimed_benchmarks(experiments: list[Experiment]) -> tuple[str, ...]:
    """Benchmarks some published figure refers to (as the measured benchmark or as its reference)."""
    return tuple(dict.fromkeys(name for exp in experiments for c in exp.claims for name in (c.benchmark, c.reference)))


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


def plan_cells(experiments: list[Experiment], levels: list[IsaLevel] | dict[str, list[IsaLevel]],
               benchmarks: tuple[str, ...] | None = None, variants: tuple[str, ...] | None = None) -> list[Cell]:
    """Cells in run order. `levels`: one list for every experiment, or a list per experiment id. The ISA level
    is the outer loop so that the cells whose ratios are compared (same level, same group) run close together in time."""
    _check_filter("benchmark", benchmarks, {b for exp in experiments for b in exp.benchmarks})
    _check_filter("variant", variants, {b.variant for exp in experiments for b in exp.benchmarks.values()})
    per_exp = levels if isinstance(levels, dict) else {exp.id: levels for exp in experiments}
    order = list({level.name: level for exp in experiments for level in per_exp[exp.id]}.values())
    return [Cell(exp.id, bench.id, bench.group, exp.baseline_of(bench.id), bench.lab, bench.variant, bench.dataset,
                 bench.operation, level.name)
            for level in order for exp in experiments if level in per_exp[exp.id]
            for bench in _selected(exp, benchmarks, variants)]


def datasets_of(cells: list[Cell]) -> list[str]:
    """Distinct datasets the cells read, in first-use order."""
    return list(dict.fromkeys(c.dataset for c in cells))


def labs_of(cells: list[Cell]) -> list[str]:
    """Distinct labs the cells use, in first-use order."""
    return list(dict.fromkeys(c.lab for c in cells))
