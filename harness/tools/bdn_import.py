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
from dataclasses import dataclass, field

import tomllib

from harness.config.experiment_schema import SCHEMA_DIRECTIVE, TODO
from harness.config.isa import IsaTable
from harness.config.labs import LabSpec
from harness.model.defaults import CONFIG_SCHEMA_VERSION, EXPERIMENTS_DIR
from harness.model.errors import ConfigError
from harness.tools.bdn_grouping import ImportedGroup, Importer, slug
from harness.tools.bdn_report import Row, Table, Unread, read_report


@dataclass
class ImportResult:
    """The experiment file's text and what the import could not decide."""

    text: str
    tables: int
    claims: int
    unread: list[Unread]
    todos: int
    no_baseline: list[str] = field(default_factory=list)  # groups whose baseline the report did not name


def _toml(value) -> str:
    """A TOML literal; a string as a basic string with every control character (DEL included, which JSON leaves raw
    and TOML refuses) escaped."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, (list, tuple)):
        return "[" + ", ".join(_toml(v) for v in value) + "]"
    return re.sub("[\x00-\x1f\x7f]", lambda m: f"\\u{ord(m.group(0)):04x}", json.dumps(str(value), ensure_ascii=False))


def build_experiment(tables: list[Table], exp_id: str, lab: LabSpec, isa: IsaTable) -> ImportResult:
    """The text of an experiment file holding every readable row of the tables as a claim."""
    importer = Importer(lab, isa)
    tables = _numbered(tables)
    groups = [g for table in tables for g in importer.groups_of(table)]
    ids = {(id(g.table), row.line): importer.bench_id(g.table, row) for g in groups for row in g.rows}
    unread = [u for t in tables for u in t.unread]
    out = _preamble(tables, unread, exp_id, lab)
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
    out += _benchmark_lines(groups, ids, lab)
    out += _hardware_lines(importer)
    claims = 0
    for g in groups:
        for row in g.rows:
            out += _claim(g, row, ids)
            claims += 1
    text = "\n".join(out).rstrip() + "\n"
    todos = sum(1 for line in text.splitlines() if not line.startswith("#") and f'"{TODO}' in line)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:  # every value goes through _toml: a bug, not the report's fault
        raise ConfigError(
            f"the experiment built from the report is not valid TOML ({e}); nothing was written",
            "report it with the report file: the importer must escape what it copies",
        ) from None
    return ImportResult(text, len(tables), claims, unread, todos, no_baseline)


def _numbered(tables: list[Table]) -> list[Table]:
    """The tables, each later one of a class name already seen named with its number: "Name (2)"."""
    seen: dict[str, int] = {}
    renamed = []
    for table in tables:  # two reports of one class name would share scenarios: number the later ones
        seen[table.name] = seen.get(table.name, 0) + 1
        renamed.append(
            table if seen[table.name] == 1 else dataclasses.replace(table, name=f"{table.name} ({seen[table.name]})")
        )
    return renamed


def _preamble(tables: list[Table], unread: list[Unread], exp_id: str, lab: LabSpec) -> list[str]:
    """The file's opening: the comments (the reports read, what to fill, the rows not read), the experiment's own
    fields, and the BenchmarkDotNet versions the reports name."""
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
    return out


def _benchmark_lines(groups: list[ImportedGroup], ids: dict, lab: LabSpec) -> list[str]:
    """One [[benchmarks]] entry per row, its variant and dataset left as TODOs (a report cannot say them)."""
    out: list[str] = []
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
    return out


def _hardware_lines(importer: Importer) -> list[str]:
    """One [hardware.<key>] entry per report header the importer met, with comments on its ISA level and runtimes."""
    out: list[str] = []
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
    return out


def _claim(group: ImportedGroup, row: Row, ids: dict) -> list[str]:
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


#: The columns BenchmarkDotNet prints beside a Mean (a table of allocations alone has none of them).
TIME_STATISTICS = frozenset({"Error", "StdDev", "StdErr", "Median", "Min", "Max", "Q1", "Q3"})


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
        for table in found:
            timed = sorted(TIME_STATISTICS & set(table.columns))
            if "Mean" not in table.columns and timed:
                raise ConfigError(
                    f"{path}: table '{table.name}' has {', '.join(timed)} but no Mean column (its columns: "
                    f"{', '.join(table.columns)[:300]}), so its rows would carry no time",
                    "BenchmarkDotNet always prints Mean: name the column Mean again (with its unit, e.g. 'Mean [ns]' "
                    "when the cells have none), or leave the table out",
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
