"""How an import reads a report's tables as the lab's experiment: rows grouped into scenarios (one per parameter values
and job) with their baseline, a hardware entry per CPU and job, and unique ids for groups and benchmarks."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass

from harness.config.experiment_schema import TODO
from harness.config.isa import IsaTable
from harness.config.labs import LabSpec
from harness.model.records import STEADY
from harness.tools.bdn_hardware import isa_level_of, runtime_of, stand_ins
from harness.tools.bdn_header import Environment
from harness.tools.bdn_report import Row, Table


def slug(text: str) -> str:
    """An id fragment: letters, digits, _ . - kept, anything else a single '-'."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", text).strip("-.") or "x"


@dataclass
class ImportedHardware:
    key: str
    description: str
    runtime: str
    isa_level: str
    isa_comment: str
    lab_runtimes: list[str]
    runtime_comment: str
    machine: str = ""  # the CPU and OS as printed (claims across runtimes note two machines)


@dataclass
class ImportedGroup:
    id: str
    scenario: str
    table: Table
    rows: list[Row]
    hardware: ImportedHardware
    baseline: Row
    baseline_named: bool  # by the report (Baseline method or ratio 1.00), not chosen by this import
    ratios_here: bool  # the report's ratios of these rows are to this group's baseline


def _same_job(column: str, job_id: str, runtime: str | None) -> bool:
    """Whether a row's Job or Runtime column ('.NET 8.0') names the header's job `job_id` ('.NET 8.0', 'Job-KXPQRS')
    whose line says `runtime` ('.NET 8.0.4'): by the id, or by the runtime's version line."""
    return column.startswith(job_id) or (
        runtime is not None and (runtime == column or runtime.startswith(column + "."))
    )


class Importer:
    def __init__(self, lab: LabSpec, isa: IsaTable) -> None:
        self.lab, self.isa = lab, isa
        self.hardware: dict[tuple, ImportedHardware] = {}
        self.bench_ids: set[str] = set()
        self.group_ids: set[str] = set()

    def hardware_for(self, env: Environment, job: str | None, source: str = "") -> ImportedHardware:
        jobs = env.measured_jobs
        line = jobs.get(job or "") or (next(iter(jobs.values())) if len(jobs) == 1 else None)
        if line is None and job:  # a Runtime column ('.NET 8.0') beside job ids the header names ('Job-KXPQRS')
            line = next((v for k, v in jobs.items() if runtime_of(v) and _same_job(job, k, runtime_of(v))), None) or job
        key: tuple = (env.bdn_version, env.os, env.cpu, env.sdk, runtime_of(line) or line)
        if not any(key):  # a report without its header: one entry per file, each asking for its own machine
            key = (source,)
        if key in self.hardware:
            return self.hardware[key]
        runtime = runtime_of(line)
        level, why = isa_level_of(line, env.cpu)
        levels = ", ".join(dict.fromkeys(n for table in self.isa.levels.values() for n in table))
        found = stand_ins(runtime, env.sdk, self.lab)
        job_name = next((k for k, v in env.measured_jobs.items() if v == line), job)
        parts = [
            env.cpu,
            env.os,
            runtime or (f".NET SDK {env.sdk} (runtime not printed)" if env.sdk else None),
            f"BenchmarkDotNet {env.bdn_version}" if env.bdn_version else None,
            job_name,
            env.settings or None,
        ]
        described = "; ".join(p for p in parts if p)
        runtimes = ", ".join(self.lab.runtimes_measuring(STEADY))
        hw = ImportedHardware(
            key=f"H{len(self.hardware) + 1}",
            description=described
            or f"{TODO}: the report printed no environment; the CPU, OS, runtime and BenchmarkDotNet version",
            runtime=runtime
            or (
                f".NET SDK {env.sdk} (runtime not printed)"
                if env.sdk
                else f"{TODO}: the runtime the figures were measured on"
            ),
            isa_level=level or f"{TODO}: the ISA level matching the published CPU",
            isa_comment=f"from the report: {why}" if level else f"{why}; one of: {levels}",
            lab_runtimes=found
            or [f"{TODO}: the {self.lab.name} runtimes standing in for {runtime or 'the published runtime'}"],
            machine=f"{env.cpu}; {env.os}" if env.cpu or env.os else f"not printed ({source})",
            runtime_comment=(
                f"the {self.lab.name} runtimes nearest {runtime or 'the SDK'}'s version (all: {runtimes})"
                if found
                else f"lab {self.lab.name} has no runtime of this version; pick the stand-ins from: {runtimes}"
            ),
        )
        self.hardware[key] = hw
        return hw

    def groups_of(self, table: Table) -> list[ImportedGroup]:
        """BenchmarkDotNet's ratio groups: rows of one parameter set, split by job where the table has several."""
        by_key: dict[tuple, list[Row]] = {}
        for row in table.rows:
            by_key.setdefault((tuple(row.params.values()), row.job), []).append(row)
        jobs = {row.job for row in table.rows}
        out = []
        for (values, job), rows in by_key.items():
            params = ", ".join(f"{k}={v}" for k, v in zip(table.param_columns, values))
            scenario = table.name + (f" ({params})" if params else "") + (f" on {job}" if job and len(jobs) > 1 else "")
            named = next((r for r in rows if r.method.lower() == "baseline"), None) or next(
                (r for r in rows if r.ratio == 1.0), None
            )
            gid = self._unique(self.group_ids, [slug(f"{table.name}-{'-'.join(values)}-{job or ''}"), slug(table.name)])
            out.append(
                ImportedGroup(
                    gid,
                    scenario,
                    table,
                    rows,
                    self.hardware_for(table.environment, job, table.source.name),
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
        params = "-".join(row.params.values())
        job = row.job or ""
        return self._unique(
            self.bench_ids,
            [
                slug(row.method),
                slug(f"{row.method}-{params}"),
                slug(f"{row.method}-{params}-{job}"),
                slug(f"{table.name}-{row.method}-{params}-{job}"),
            ],
        )
