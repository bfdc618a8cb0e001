"""Planning: experiments × benchmarks × ISA levels → the ordered list of cells of a run."""

from __future__ import annotations

from harness.errors import UnknownNameError
from harness.experiments import Experiment
from harness.isa import IsaLevel
from harness.records import Cell


def plan_cells(experiments: list[Experiment], levels: list[IsaLevel], benchmarks: tuple[str, ...] | None = None) -> list[Cell]:
    """Cells in run order. The ISA level is the outer loop so that the cells whose ratios are
    compared (same level, same group) run close together in time."""
    if benchmarks is not None:
        known = {b for exp in experiments for b in exp.benchmarks}
        for name in benchmarks:
            if name not in known:
                raise UnknownNameError("benchmark", name, known, "in the selected experiments")
    cells = []
    for level in levels:
        for exp in experiments:
            for bench in exp.benchmarks.values():
                if benchmarks is None or bench.id in benchmarks or _is_needed_baseline(exp, bench.id, benchmarks):
                    cells.append(Cell(exp.id, bench.id, bench.group, exp.baseline_of(bench.id), bench.lab,
                                      bench.variant, bench.dataset, bench.operation, level.name))
    return cells


def _is_needed_baseline(exp: Experiment, bench_id: str, selected: tuple[str, ...]) -> bool:
    """A filtered run still measures each selected benchmark's baseline, so ratios stay computable."""
    return any(b in exp.benchmarks and exp.baseline_of(b) == bench_id for b in selected)


def datasets_of(cells: list[Cell]) -> list[str]:
    """Distinct datasets the cells read, in first-use order."""
    return list(dict.fromkeys(c.dataset for c in cells))


def labs_of(cells: list[Cell]) -> list[str]:
    """Distinct labs the cells use, in first-use order."""
    return list(dict.fromkeys(c.lab for c in cells))
