"""`just import <report>…`: BenchmarkDotNet reports (harness/tools/bdn_report.py) into a new experiment file.

Every row read becomes one claim carrying the report's numbers: the mean in ns (with the mean as printed), the ratio,
the
allocated bytes (with the rounding of a figure printed in KB or MB as its tolerance). Rows are grouped as
BenchmarkDotNet
takes ratios: by parameter values, and by job where a table has several. A group's baseline is the row of its `Baseline`
method, else its row with ratio 1.00; where the report names none, the first row is used and a comment says so. Each
report header becomes a hardware entry: CPU, OS, runtime, and the ISA level the job line's instruction set or the CPU's
code name implies. What a report cannot say (which lab variant and dataset a method maps to, the operation, the
write-up, an ISA level it does not imply, the lab runtimes that stand in for a runtime the lab lacks) is written as a
`TODO` the checks refuse until it is filled. Rows that cannot be read are listed in the file and in the summary.
"""

from __future__ import annotations

import dataclasses
import json
import pathlib
import re
from collections.abc import Iterable
from dataclasses import dataclass, field

from harness.tools.bdn_report import Environment, Row, Table, Unread, read_report
from harness.config.defaults import CONFIG_SCHEMA_VERSION, EXPERIMENTS_DIR
from harness.model.errors import ConfigError
from harness.config.experiment_schema import SCHEMA_DIRECTIVE, TODO
from harness.config.isa import IsaTable
from harness.config.labs import LabSpec
from harness.model.records import STEADY

#: Instruction sets a job line names (BenchmarkDotNet 0.13 and later) -> the lab's ISA level that matches them.
JOB_LINE_ISA = (
    (re.compile(r"AVX-?512|x86-64-v4", re.I), "native"),
    (re.compile(r"\bAVX2\b|x86-64-v3", re.I), "no-avx512"),
    (re.compile(r"x86-64-v2|\bAVX\b|SSE4\.2", re.I), "no-avx2"),
    (re.compile(r"AdvSIMD", re.I), "native"),
)
#: Intel code names BenchmarkDotNet prints after the CPU name -> the lab's ISA level matching their vector instructions.
CODE_NAME_ISA = {
    **dict.fromkeys(
        [
            "Haswell",
            "Broadwell",
            "Skylake",
            "Kaby Lake",
            "Kaby Lake R",
            "Kaby Lake G",
            "Amber Lake",
            "Amber Lake Y",
            "Coffee Lake",
            "Coffee Lake R",
            "Whiskey Lake",
            "Comet Lake",
            "Alder Lake",
            "Raptor Lake",
        ],
        "no-avx512",
    ),
    **dict.fromkeys(
        [
            "Skylake-X",
            "Cascade Lake",
            "Cooper Lake",
            "Ice Lake",
            "Tiger Lake",
            "Rocket Lake",
            "Sapphire Rapids",
            "Emerald Rapids",
            "Granite Rapids",
        ],
        "native",
    ),
    **dict.fromkeys(["Nehalem", "Westmere", "Sandy Bridge", "Ivy Bridge"], "no-avx2"),
}
_RUNTIME = re.compile(r"^(\.NET(?: Core| Framework)? \d+(?:\.\d+)*(?:-[\w.]+)?|Mono [\d.]+|NativeAOT [\d.]+)")


@dataclass
class ImportResult:
    """The experiment file's text and what the import could not decide."""

    text: str
    tables: int
    claims: int
    unread: list[Unread]
    todos: int
    no_baseline: list[str] = field(default_factory=list)  # groups whose baseline the report did not name


def runtime_of(line: str | None) -> str | None:
    """'.NET Core 5.0.4 (CoreCLR …), X64 RyuJIT' -> '.NET Core 5.0.4'; '.NET 8.0.0 (8.0.23.53103), X64 RyuJIT AVX2' ->
    '.NET 8.0.0'."""
    m = _RUNTIME.match((line or "").strip())
    return m.group(1) if m else None


def isa_level_of(job_line: str | None, cpu: str | None) -> tuple[str | None, str]:
    """(level, why) from the job line's instruction set, else the CPU's code name; (None, why not) when neither says."""
    for pattern, level in JOB_LINE_ISA:
        if job_line and (m := pattern.search(job_line)):
            return level, f"the job line says {m.group(0)}"
    code = re.search(r"\(([^()]+)\)\s*$", cpu or "")
    if code and code.group(1) in CODE_NAME_ISA:
        return CODE_NAME_ISA[code.group(1)], f"{code.group(1)} CPU"
    return None, "the header names no instruction set and no CPU code name this import knows"


def stand_ins(runtime: str | None, sdk: str | None, lab: LabSpec) -> list[str]:
    """The lab's runtimes that can stand in for a published .NET runtime: the same version, else the same major.minor,
    else the same major (steady-state builds only); empty when none (or for .NET Framework and Mono)."""
    version = None
    if runtime and runtime.startswith(".NET") and "Framework" not in runtime:
        version = runtime.split()[-1]
    elif runtime is None and sdk:
        version = ".".join(sdk.split(".")[:2])
    if not version:
        return []
    usable = lab.runtimes_measuring(STEADY)
    numbers = version.split("-")[0].split(".")
    for depth in (len(numbers), 2, 1):
        prefix = numbers[:depth]
        found = [r for r in usable if lab.runtimes.get(r) and lab.runtimes[r].version.split(".")[:depth] == prefix]
        if found:
            return found
    return []


def slug(text: str) -> str:
    """An id fragment: letters, digits, _ . - kept, anything else a single '-'."""
    return re.sub(r"[^A-Za-z0-9_.]+", "-", text).strip("-.") or "x"


def _toml(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return json.dumps(str(value), ensure_ascii=False)


@dataclass
class _Hardware:
    key: str
    description: str
    runtime: str
    isa_level: str
    isa_comment: str
    lab_runtimes: list[str]
    runtime_comment: str


@dataclass
class _Group:
    id: str
    scenario: str
    table: Table
    rows: list[Row]
    hardware: _Hardware
    baseline: Row
    baseline_named: bool  # by the report (Baseline method or ratio 1.00), not chosen by this import
    ratios_here: bool  # the report's ratios of these rows are to this group's baseline


class _Importer:
    def __init__(self, lab: LabSpec, isa: IsaTable) -> None:
        self.lab, self.isa = lab, isa
        self.hardware: dict[tuple, _Hardware] = {}
        self.bench_ids: set[str] = set()
        self.group_ids: set[str] = set()

    def hardware_for(self, env: Environment, job: str | None) -> _Hardware:
        jobs = env.measured_jobs
        line = jobs.get(job or "") or (next(iter(jobs.values())) if len(jobs) == 1 else None)
        if line is None and job:
            line = next((v for k, v in jobs.items() if runtime_of(v) and job.startswith(k)), None) or job
        key = (env.bdn_version, env.os, env.cpu, env.sdk, runtime_of(line) or line)
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
        hw = _Hardware(
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
            runtime_comment=(
                f"the {self.lab.name} runtimes nearest {runtime or 'the SDK'}'s version (all: {runtimes})"
                if found
                else f"lab {self.lab.name} has no runtime of this version; pick the stand-ins from: {runtimes}"
            ),
        )
        self.hardware[key] = hw
        return hw

    def groups_of(self, table: Table) -> list[_Group]:
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
                _Group(
                    gid,
                    scenario,
                    table,
                    rows,
                    self.hardware_for(table.environment, job),
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


def build_experiment(tables: list[Table], exp_id: str, lab: LabSpec, isa: IsaTable) -> ImportResult:
    """The text of an experiment file holding every readable row of the tables as a claim."""
    importer = _Importer(lab, isa)
    seen: dict[str, int] = {}
    renamed = []
    for table in tables:  # two reports of one class name would share scenarios: number the later ones
        seen[table.name] = seen.get(table.name, 0) + 1
        renamed.append(
            table if seen[table.name] == 1 else dataclasses.replace(table, name=f"{table.name} ({seen[table.name]})")
        )
    tables = renamed
    groups = [g for table in tables for g in importer.groups_of(table)]
    ids = {(id(g.table), row.line): importer.bench_id(g.table, row) for g in groups for row in g.rows}
    unread = [u for t in tables for u in t.unread]
    versions = sorted({t.environment.bdn_version for t in tables if t.environment.bdn_version})
    sources = sorted({t.source.name for t in tables})

    out: list[str] = [
        SCHEMA_DIRECTIVE,
        f"# Imported by `just import` from {len(sources)} BenchmarkDotNet report(s): {', '.join(sources)}.",
        "# Fill every TODO (`just check` lists them; docs/experiments.md says what each field takes), then compare the",
        "# variants, datasets and baselines below with the write-up. One benchmark per report row: where two tables "
        "measured",
        "# the same thing, point their claims at one benchmark and delete the other.",
    ]
    if unread:
        out.append(f"# Rows not read ({len(unread)}), so not claims:")
        out += [f"#   {u.source} line {u.line}: {u.reason}: {u.text}" for u in unread]
    out += [
        f"schema_version = {CONFIG_SCHEMA_VERSION}",
        f"id = {_toml(exp_id)}",
        f"title = {_toml(TODO + ': what the write-up compares, in one line')}",
        f"writeup = {_toml(TODO + ': author, title, date and link of the write-up')}",
        f"lab = {_toml(lab.name)}",
        f"operation = {_toml(TODO + ': the operation every benchmark measures (deserialize, serialize)')}",
        "",
    ]
    if versions:
        out += ["[published_versions]", f"BenchmarkDotNet = {_toml(', '.join(versions))}", ""]
    no_baseline = []
    for g in groups:
        out += ["[[groups]]", f"id = {_toml(g.id)}", f"title = {_toml(g.scenario)}"]
        if not g.baseline_named and len(g.rows) > 1:
            no_baseline.append(g.scenario)
            out.append(
                "# The report names no baseline (no Baseline method, no ratio 1.00): the first row is used. "
                "Set the one the write-up compares against."
            )
        out += [f"baseline = {_toml(ids[(id(g.table), g.baseline.line)])}", ""]
    for g in groups:
        for row in g.rows:
            params = ", ".join(f"{k}={v}" for k, v in row.params.items())
            out += [
                "[[benchmarks]]",
                f"id = {_toml(ids[(id(g.table), row.line)])}",
                f"group = {_toml(g.id)}",
                f"variant = {_toml(f'{TODO}: the {lab.name} variant of {row.method}')}",
                f"dataset = {_toml(TODO + ': the dataset of ' + row.method + (f' ({params})' if params else ''))}",
                "",
            ]
    for hw in importer.hardware.values():
        out += [
            f"[hardware.{hw.key}]",
            f"description = {_toml(hw.description)}",
            f"runtime = {_toml(hw.runtime)}",
            f"# {hw.isa_comment}",
            f"isa_level = {_toml(hw.isa_level)}",
            f"# {hw.runtime_comment}",
            f"lab_runtimes = {_toml(hw.lab_runtimes)}",
            "",
        ]
    claims = 0
    for g in groups:
        for row in g.rows:
            out += _claim(g, row, ids)
            claims += 1
    text = "\n".join(out).rstrip() + "\n"
    todos = sum(1 for line in text.splitlines() if not line.startswith("#") and f'"{TODO}' in line)
    return ImportResult(text, len(tables), claims, unread, todos, no_baseline)


def _claim(group: _Group, row: Row, ids: dict) -> list[str]:
    bench = ids[(id(group.table), row.line)]
    reference = ids[(id(group.table), group.baseline.line)]
    lines = [
        f"# {group.table.source.name} line {row.line}",
        "[[claims]]",
        f"scenario = {_toml(group.scenario)}",
        f"published_variant = {_toml(row.method)}",
    ]
    printed = group.ratios_here and row.ratio is not None
    lines.append(f"published_baseline = {_toml(group.baseline.method if group.ratios_here else 'none')}")
    lines += [f"benchmark = {_toml(bench)}", f"{'baseline' if printed else 'derived_baseline'} = {_toml(reference)}"]
    if row.mean_ns is not None:
        lines += [f"mean_ns = {_toml(float(row.mean_ns))}", f"published_mean = {_toml(row.mean_text)}"]
    if row.allocated_bytes is not None:
        lines.append(f"allocated_bytes = {row.allocated_bytes}")
        if row.allocated_tolerance_bytes:
            tolerance = row.allocated_tolerance_bytes
            lines.append(
                f"allocated_tolerance_bytes = {tolerance}  # printed as {row.allocated_text}: known to ±{tolerance} B"
            )
    if printed:
        lines.append(f"ratio = {_toml(row.ratio)}")
    lines.append(f"hardware = {_toml(group.hardware.key)}")
    if row.ratio is not None and not group.ratios_here and group.table.has_ratio:
        lines.append(
            "note = "
            + _toml(
                f"the published ratio {row.ratio} is to a baseline outside these rows (another job's: a ratio across "
                "runtimes, which this lab does not measure; or a row not read); here it is derived from the means"
            )
        )
    elif group.table.has_ratio and row.ratio is None:
        lines.append(f"note = {_toml('no ratio printed for this row; derived from the published means')}")
    return lines + [""]


def next_experiment_id(directory: pathlib.Path = EXPERIMENTS_DIR) -> str:
    """The id after the highest one in the folder, as three digits."""
    ids = [int(m.group(1)) for p in directory.glob("[0-9]*.toml") if (m := re.match(r"(\d+)", p.name))]
    return f"{max(ids, default=-1) + 1:03d}"


def import_reports(paths: list[pathlib.Path], exp_id: str, lab: LabSpec, isa: IsaTable) -> ImportResult:
    """Reads every report and builds the experiment; a file with no BenchmarkDotNet table is an error."""
    tables = []
    for path in paths:
        if not path.is_file():
            raise ConfigError(f"no such report: {path}", "give the path of a BenchmarkDotNet *-report-github.md file")
        found = read_report(path)
        if not found:
            raise ConfigError(
                f"{path} holds no BenchmarkDotNet table (a markdown table with Method and Mean or Allocated columns)",
                "give the *-report-github.md file BenchmarkDotNet wrote (BenchmarkDotNet.Artifacts/results/)",
            )
        tables += found
    if not any(t.rows for t in tables):
        reasons = "; ".join(f"{u.source} line {u.line}: {u.reason}" for t in tables for u in t.unread)
        raise ConfigError(
            "no row of the report(s) could be read",
            reasons[:400] or "each row needs a Method and a Mean (or Allocated) cell",
        )
    return build_experiment(tables, exp_id, lab, isa)


def default_output(
    result_id: str, tables_source: pathlib.Path, directory: pathlib.Path = EXPERIMENTS_DIR
) -> pathlib.Path:
    """experiments/NNN-<first report's name>.toml"""
    name = re.sub(r"-report(-github)?$", "", tables_source.stem, flags=re.I).rsplit(".", 1)[-1]
    return directory / f"{result_id}-{slug(name).lower()}.toml"
