"""How an import reads a report's tables as the lab's experiment: rows grouped as BenchmarkDotNet takes its ratios (one
group per logical group, parameter values, category and job) with the baseline the report marks, a hardware entry per
machine and job (machines.py), and unique ids for groups and benchmarks."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from harness.bdn.machines import ImportedHardware, Machines
from harness.bdn.report_tables import Row, Table
from harness.config.isa import IsaTable
from harness.config.lab.labs import LabSpec


def slug(text: str) -> str:
    """An id fragment: letters, digits, _ . - kept, anything else a single '-'."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", text).strip("-.") or "x"


@dataclass
class ImportedGroup:
    """One ratio group of a report: its rows, the job they ran in and the baseline the report marks."""

    id: str
    scenario: str
    table: Table
    rows: list[Row]
    hardware: ImportedHardware
    baseline: Row  # the marked row; where the report marks none, the first row, only so that the file loads
    baseline_named: bool  # by the report (a Baseline=Yes row, a Baseline method or ratio 1.00), not by this import
    ratios_here: bool  # the report's ratios of these rows are to this group's baseline


def baseline_of(rows: list[Row]) -> Row | None:
    """The row the report marks as these rows' baseline: the one Baseline=Yes row where the table has the column,
    else a method named Baseline, else the row with ratio 1.00; None when it marks none."""
    if any(r.baseline_mark is not None for r in rows):
        marked = [r for r in rows if r.baseline_mark]
        return marked[0] if len(marked) == 1 else None
    return next((r for r in rows if r.method.lower() == "baseline"), None) or next(
        (r for r in rows if r.ratio == 1.0), None
    )


class Importer:
    """The groups, hardware entries and ids of one import, across all its reports."""

    def __init__(self, lab: LabSpec, isa: IsaTable) -> None:
        self.lab, self.isa = lab, isa
        self.machines = Machines(lab, isa)
        self.bench_ids: set[str] = set()
        self.group_ids: set[str] = set()

    @property
    def hardware(self) -> dict[tuple, ImportedHardware]:
        """Every hardware entry met so far."""
        return self.machines.entries

    def groups_of(self, table: Table) -> list[ImportedGroup]:
        """BenchmarkDotNet's ratio groups: the rows of one logical group (between its empty rows), parameter set,
        category and job. A category ([CategoriesColumn]) is a group of its own with its own baseline, never a
        parameter of the benchmark."""
        by_key: dict[tuple, list[Row]] = {}
        for row in table.rows:
            by_key.setdefault((row.block, tuple(row.params.values()), row.category, row.job_key), []).append(row)
        several_jobs = len({row.job_key for row in table.rows}) > 1
        out: list[ImportedGroup] = []
        for (_, values, category, _), rows in by_key.items():
            params = ", ".join(f"{k}={v}" for k, v in zip(table.param_columns, values))
            job = rows[0].job_label
            scenario = (
                table.name
                + (f": {category}" if category else "")
                + (f" ({params})" if params else "")
                + (f" on {job}" if job and several_jobs else "")
            )
            taken = sum(1 for g in out if g.scenario == scenario or g.scenario.startswith(scenario + " [group "))
            scenario += f" [group {taken + 1}]" if taken else ""  # a table without its Categories column
            named = baseline_of(rows)
            parts = [table.name, category or "", *values, job]
            gid = self._unique(self.group_ids, [slug("-".join(p for p in parts if p)), slug(table.name)])
            out.append(
                ImportedGroup(
                    gid,
                    scenario,
                    table,
                    rows,
                    self.machines.hardware_for(table.environment, rows[0], table.source.name),
                    named or rows[0],
                    named is not None,
                    named is not None and table.has_ratio,
                )
            )
        return out

    @staticmethod
    def _unique(used: set[str], candidates: Iterable[str]) -> str:
        candidates = list(dict.fromkeys(candidates))
        for name in candidates:
            if name not in used:
                used.add(name)
                return name
        base, n = candidates[-1], 2
        while f"{base}-{n}" in used:
            n += 1
        used.add(f"{base}-{n}")
        return f"{base}-{n}"

    def bench_id(self, table: Table, row: Row) -> str:
        """A benchmark id for a row: its method, with its parameters, category and job where another row took it."""
        params = "-".join(row.params.values())
        job = row.job_label
        return self._unique(
            self.bench_ids,
            [
                slug(row.method),
                slug(f"{row.method}-{params}"),
                slug(f"{row.method}-{params}-{job}"),
                slug(f"{table.name}-{row.method}-{params}-{row.category or ''}-{job}"),
            ],
        )
