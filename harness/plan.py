"""Planning: experiments × benchmarks × ISA levels → the ordered list of cells of a run."""

from __future__ import annotations

from harness.errors import UnknownNameError
from harness.experiments import Benchmark, Experiment
from harness.isa import IsaLevel
from harness.records import Cell


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
               variants: tuple[str, ...] | None = None) -> list[Cell]:
    """Cells in run order. The ISA level is the outer loop so that the cells whose ratios are
    compared (same level, same group) run close together in time."""
    _check_filter("benchmark", benchmarks, {b for exp in experiments for b in exp.benchmarks})
    _check_filter("variant", variants, {b.variant for exp in experiments for b in exp.benchmarks.values()})
    return [Cell(exp.id, bench.id, bench.group, exp.baseline_of(bench.id), bench.lab, bench.variant, bench.dataset,
                 bench.operation, level.name)
            for level in levels for exp in experiments for bench in _selected(exp, benchmarks, variants)]


def datasets_of(cells: list[Cell]) -> list[str]:
    """Distinct datasets the cells read, in first-use order."""
    return list(dict.fromkeys(c.dataset for c in cells))


def labs_of(cells: list[Cell]) -> list[str]:
    """Distinct labs the cells use, in first-use order."""
    return list(dict.fromkeys(c.lab for c in cells))
