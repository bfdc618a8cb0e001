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
from harness.tools.bdn_runtimes import base_name, key_of, runtime_claim, runtime_claims, scenario_of, share
from harness.tools.claim_table_text import claim_tables_text
from harness.tools.toml_text import toml_value as _toml


@dataclass
class ImportResult:
    """The experiment file's text and what the import could not decide."""

    text: str
    tables: int
    claims: int
    unread: list[Unread]
    todos: int
    no_baseline: list[str] = field(default_factory=list)  # groups whose baseline the report did not name


def build_experiment(
    tables: list[Table], exp_id: str, lab: LabSpec, isa: IsaTable, kept_in: str | None = None
) -> ImportResult:
    """The text of an experiment file holding every readable row of the tables as a claim."""
    importer = Importer(lab, isa)
    tables = _numbered(tables)
    groups = [g for table in tables for g in importer.groups_of(table)]
    shared = share(groups, importer)  # one benchmark per figure published on several runtimes
    ids = shared.bench
    unread = [u for t in tables for u in t.unread]
    out = _preamble(tables, unread, exp_id, lab, kept_in)
    no_baseline = []
    for g in groups:
        if shared.lab_group[g.id] != g.id:
            continue  # its benchmarks are those of the same table on an earlier runtime, in that group
        merged = key_of(g, g.rows[0]) in shared.merged
        params = ", ".join(f"{k}={v}" for k, v in g.rows[0].params.items())
        title = f"{base_name(g.table)}{f' ({params})' if params else ''}" if merged else g.scenario
        out += ["[[groups]]", f"id = {_toml(g.id)}", f"title = {_toml(title)}"]
        if not g.baseline_named and len(g.rows) > 1:
            no_baseline.append(g.scenario)
            out.append(
                "# The report names no baseline (no Baseline method, no ratio 1.00): the first row is used. "
                "Set the one the write-up compares against."
            )
        out += [f"baseline = {_toml(ids[(id(g.table), g.baseline.line)])}", ""]
    out += _benchmark_lines(groups, ids, lab, shared.lab_group)
    out += _hardware_lines(importer)
    rows = [
        (
            f"{'/'.join(g.table.source.parts[-2:])} line {row.line}",
            _claim(g, row, ids) | {"scenario": scenario_of(g, shared)},
        )
        for g in groups
        for row in g.rows
    ]
    rows += [
        (f"{c.hardware.runtime} over the oldest runtime", runtime_claim(c)) for c in runtime_claims(groups, shared)
    ]
    out += claim_tables_text(rows)
    claims = len(rows)
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


def _preamble(tables: list[Table], unread: list[Unread], exp_id: str, lab: LabSpec, kept_in: str | None) -> list[str]:
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
        "# the same thing, point their claims at one benchmark and delete the other (a figure on several runtimes is",
        "# one benchmark already, with its claims across runtimes).",
    ]
    if kept_in:
        out.append(f"# The reports are kept in {kept_in} (copied by `just import`): commit them with this file.")
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


def _benchmark_lines(groups: list[ImportedGroup], ids: dict, lab: LabSpec, lab_group: dict[str, str]) -> list[str]:
    """One [[benchmarks]] entry per figure (a row, or a row on every runtime it was published on), its variant and
    dataset left as TODOs (a report cannot say them)."""
    out: list[str] = []
    written: set[str] = set()
    for g in groups:
        for row in g.rows:
            bench = ids[(id(g.table), row.line)]
            if bench in written:
                continue
            written.add(bench)
            params = ", ".join(f"{k}={v}" for k, v in row.params.items())
            out += [
                "[[benchmarks]]",
                f"id = {_toml(bench)}",
                f"group = {_toml(lab_group[g.id])}",
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


def _claim(group: ImportedGroup, row: Row, ids: dict) -> dict:
    """One row as a claim's fields, in the order a reader expects them."""
    printed = group.ratios_here and row.ratio is not None
    claim: dict = {
        "scenario": group.scenario,
        "published_variant": row.method,
        "published_baseline": group.baseline.method if group.ratios_here else "none",
        "benchmark": ids[(id(group.table), row.line)],
        "baseline" if printed else "derived_baseline": ids[(id(group.table), group.baseline.line)],
    }
    if row.mean_ns is not None:
        claim |= {"mean_ns": float(row.mean_ns), "published_mean": row.mean_text}
    if row.allocated_bytes is not None:
        claim["allocated_bytes"] = row.allocated_bytes
        if row.allocated_tolerance_bytes:  # the rounding of a figure printed in KB or MB
            claim["allocated_tolerance_bytes"] = row.allocated_tolerance_bytes
    if printed:
        claim["ratio"] = row.ratio
    claim["hardware"] = group.hardware.key
    if row.ratio is not None and not group.ratios_here and group.table.has_ratio:
        claim["note"] = (
            f"the published ratio {row.ratio} is to a baseline outside these rows (another job's: a ratio across "
            "runtimes, claimed in this figure's 'across runtimes' scenario where the report has it on each; or a "
            "row not read); here it is derived from the means"
        )
    elif group.table.has_ratio and row.ratio is None:
        claim["note"] = "no ratio printed for this row; derived from the published means"
    return claim


def next_experiment_id(directory: pathlib.Path = EXPERIMENTS_DIR) -> str:
    """The id after the highest one in the folder, as three digits."""
    ids = [int(m.group(1)) for p in directory.glob("[0-9]*.toml") if (m := re.match(r"(\d+)", p.name))]
    return f"{max(ids, default=-1) + 1:03d}"


#: The columns BenchmarkDotNet prints beside a Mean (a table of allocations alone has none of them).
TIME_STATISTICS = frozenset({"Error", "StdDev", "StdErr", "Median", "Min", "Max", "Q1", "Q3"})


def import_reports(
    paths: list[pathlib.Path], exp_id: str, lab: LabSpec, isa: IsaTable, kept_in: str | None = None
) -> ImportResult:
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
    return build_experiment(tables, exp_id, lab, isa, kept_in)


def default_output(
    result_id: str, tables_source: pathlib.Path, directory: pathlib.Path = EXPERIMENTS_DIR
) -> pathlib.Path:
    """experiments/NNN-<first report's name>.toml"""
    name = re.sub(r"-report(-github)?$", "", tables_source.stem, flags=re.I).rsplit(".", 1)[-1]
    return directory / f"{result_id}-{slug(name).lower()}.toml"
