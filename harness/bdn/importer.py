"""`just import <report>…`: BenchmarkDotNet reports (harness/bdn/report_tables.py) into a new experiment file.

Every row read becomes one claim carrying the report's numbers: the mean in ns (with the mean as printed), the ratio,
the allocated bytes (with the rounding of a figure printed in KB or MB as its tolerance). Rows are grouped as
BenchmarkDotNet takes ratios: by logical group (the empty rows between them), parameter values, category and job. A
group's baseline is the row the report marks (Baseline=Yes, a `Baseline` method, ratio 1.00); where it marks none, the
group's title is a TODO naming the choices. Each job becomes a hardware entry (machines.py): CPU and its
microarchitecture, OS, runtime, the ISA level its line or switches or CPU imply, and the lab runtimes standing in; a job
the lab cannot serve (.NET Framework, Mono, Native AOT without a steady-state build) has claims that say "cannot
reproduce", never a .NET stand-in. What a report cannot say (which lab variant and dataset a method maps to, the
operation, the write-up, an ISA level it does not imply, the stand-ins of a runtime version the lab lacks) is written
as a `TODO` the checks refuse until it is filled. Rows that cannot be read are listed in the file and in the summary.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from dataclasses import dataclass, field

import tomllib

from harness.bdn.claim_table_text import claim_tables_text
from harness.bdn.entries import benchmark_lines, hardware_lines, row_claim, unserved_claim
from harness.bdn.grouping import ImportedGroup, Importer, slug
from harness.bdn.job_runtimes import SharedIds, base_name, key_of, runtime_claim, runtime_claims, scenario_of, share
from harness.bdn.machines import ImportedHardware
from harness.bdn.report_tables import Table, Unread, read_report
from harness.bdn.toml_text import toml_value as _toml
from harness.config.experiment.experiment_schema import SCHEMA_DIRECTIVE, TODO
from harness.config.isa import IsaTable
from harness.config.lab.labs import LabSpec
from harness.model.defaults import CONFIG_SCHEMA_VERSION, EXPERIMENTS_DIR
from harness.model.errors import ConfigError


@dataclass
class ImportResult:
    """The experiment file's text and what the import could not decide."""

    text: str
    tables: int
    claims: int
    unread: list[Unread]
    todos: int
    no_baseline: list[str] = field(default_factory=list)  # groups whose baseline the report did not name
    warnings: list[str] = field(default_factory=list)  # what the user must decide or know: no baseline, not served


def build_experiment(
    tables: list[Table], exp_id: str, lab: LabSpec, isa: IsaTable, kept_in: str | None = None
) -> ImportResult:
    """The text of an experiment file holding every readable row of the tables as a claim."""
    importer = Importer(lab, isa)
    tables = _numbered(tables)
    groups = [g for table in tables for g in importer.groups_of(table)]
    served = [g for g in groups if not g.hardware.unserved]
    if not served:
        raise ConfigError(
            "every row of the report(s) ran on a runtime the lab does not serve: "
            + "; ".join(dict.fromkeys(str(g.hardware.unserved) for g in groups)),
            f"lab {lab.name} can reproduce none of these figures; import the write-up's reports of .NET jobs",
        )
    shared = share(served, importer)  # one benchmark per figure published on several runtimes
    ids = shared.bench
    undecided = [g for g in served if not g.baseline_named and len(g.rows) > 1]
    out = _preamble(tables, exp_id, lab, kept_in)
    out += _group_lines(served, shared, undecided)
    out += benchmark_lines(served, ids, lab, shared.lab_group)
    out += hardware_lines(list(importer.hardware.values()))
    rows = [
        (f"{g.table.where} line {row.line}", row_claim(g, row, ids) | {"scenario": scenario_of(g, shared)})
        if not g.hardware.unserved
        else (f"{g.table.where} line {row.line}", unserved_claim(g, row))
        for g in groups
        for row in g.rows
    ]
    rows += [
        (f"{c.hardware.runtime} over the oldest runtime", runtime_claim(c)) for c in runtime_claims(served, shared)
    ]
    out += claim_tables_text(rows)
    text = "\n".join(out).rstrip() + "\n"
    todos = sum(1 for line in text.splitlines() if not line.startswith("#") and f'"{TODO}' in line)
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:  # every value goes through _toml: a bug, not the report's fault
        raise ConfigError(
            f"the experiment built from the report is not valid TOML ({e}); nothing was written",
            "report it with the report file: the importer must escape what it copies",
        ) from None
    unread = [u for t in tables for u in t.unread]
    no_baseline = [scenario_of(g, shared) for g in undecided]
    warnings = [
        f"no baseline in '{scenario}': the report marks none (no ratio 1.00, no Baseline=Yes row), so its group's "
        f"title says TODO until you choose one of {', '.join(ids[(id(g.table), r.line)] for r in g.rows)} "
        "(`just check` refuses the file until then)"
        for scenario, g in zip(no_baseline, undecided)
    ]
    warnings += _hardware_warnings(groups, list(importer.hardware.values()))
    return ImportResult(text, len(tables), len(rows), unread, todos, no_baseline, warnings)


def _group_lines(served: list[ImportedGroup], shared: SharedIds, undecided: list[ImportedGroup]) -> list[str]:
    """One [[groups]] entry per lab group. Where the report marks no baseline for a group's rows, its title is a TODO
    naming the choices: `baseline` holds the first row only so that the file loads, and the checks refuse the file
    until the user has chosen (never a baseline picked silently)."""
    open_by_lab: dict[str, list[ImportedGroup]] = {}
    for g in undecided:
        open_by_lab.setdefault(shared.lab_group[g.id], []).append(g)
    out: list[str] = []
    for g in served:
        if shared.lab_group[g.id] != g.id:
            continue  # its benchmarks are those of the same table on an earlier runtime, in that group
        merged = key_of(g, g.rows[0]) in shared.merged
        params = ", ".join(f"{k}={v}" for k, v in g.rows[0].params.items())
        category = f": {g.rows[0].category}" if g.rows[0].category else ""
        title = f"{base_name(g.table)}{category}{f' ({params})' if params else ''}" if merged else g.scenario
        out += ["[[groups]]", f"id = {_toml(g.id)}"]
        if g.id in open_by_lab:
            choices = ", ".join(
                dict.fromkeys(shared.bench[(id(o.table), r.line)] for o in open_by_lab[g.id] for r in o.rows)
            )
            scenarios = "; ".join(f"'{scenario_of(o, shared)}'" for o in open_by_lab[g.id])
            out += [
                "# The report marks no baseline for these rows (no ratio 1.00, no Baseline=Yes row): choose the one",
                "# the write-up compares against. `baseline` and the claims' derived_baseline hold the first row only",
                "# so that the file loads; the checks refuse the file while the title says TODO.",
                "title = "
                + _toml(
                    f"{TODO}: choose the baseline, one of {choices}; set `baseline` below and the derived_baseline of "
                    f"the claims of {scenarios} to it, then give the title: {title}"
                ),
            ]
        else:
            out.append(f"title = {_toml(title)}")
        out += [f"baseline = {_toml(shared.bench[(id(g.table), g.baseline.line)])}", ""]
    return out


def _hardware_warnings(groups: list[ImportedGroup], hardware: list[ImportedHardware]) -> list[str]:
    """What the user must know of the hardware entries, one line each (printed as warnings): claims no lab runtime
    serves, an arm64 CPU's vendor to name."""
    out = []
    for hw in hardware:
        if hw.unserved:
            count = sum(len(g.rows) for g in groups if g.hardware is hw)
            out.append(f"{count} claim(s) of {hw.key} ({hw.runtime}) say cannot reproduce: {hw.unserved}")
        if hw.cpu_vendor and hw.cpu_vendor.startswith(TODO):
            out.append(f"{hw.key}: {hw.cpu_comment}; its cpu_vendor says TODO until you name the vendor")
    return out


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


def _preamble(tables: list[Table], exp_id: str, lab: LabSpec, kept_in: str | None) -> list[str]:
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
        out.append(
            f"# The reports are kept in {kept_in}/ beside this file (copied by `just import`; each row's comment names "
            "its copy and line): commit them with this file."
        )
    unread = [(t.where, u) for t in tables for u in t.unread]
    if unread:
        out.append(f"# Rows not read ({len(unread)}), so not claims:")
        out += [f"#   {where} line {u.line}: {u.reason}: {u.text}" for where, u in unread]
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


def next_experiment_id(*directories: pathlib.Path) -> str:
    """The id after the highest one in the folders (experiments/ when none is given), as three digits."""
    files = [p for d in directories or (EXPERIMENTS_DIR,) for p in d.glob("[0-9]*.toml")]
    ids = [int(m.group(1)) for p in files if (m := re.match(r"(\d+)-", p.name))]
    return f"{max(ids, default=-1) + 1:03d}"


def check_id_free(exp_id: str, *directories: pathlib.Path) -> None:
    """An id an experiment file of the folders already has is refused, naming the file and the next free id."""
    taken = next((p for d in directories for p in sorted(d.glob(f"{exp_id}-*.toml"))), None)
    if taken is not None:
        raise ConfigError(
            f"experiment id {exp_id} is taken: {taken} has it; nothing was written",
            f"give --id {next_experiment_id(*directories)} (the next free id), or leave --id out to get it",
        )


def kept_names(paths: list[pathlib.Path]) -> list[str]:
    """The names of the reports' copies kept beside the experiment: numbered, since reports of one class (one per
    runtime) share a file name."""
    return [f"{number:02d}-{path.name}" for number, path in enumerate(paths, 1)]


#: The columns BenchmarkDotNet prints beside a Mean (a table of allocations alone has none of them).
TIME_STATISTICS = frozenset({"Error", "StdDev", "StdErr", "Median", "Min", "Max", "Q1", "Q3"})


def import_reports(
    paths: list[pathlib.Path], exp_id: str, lab: LabSpec, isa: IsaTable, kept_in: str | None = None
) -> ImportResult:
    """Reads every report and builds the experiment; a file with no BenchmarkDotNet table is an error. `kept_in`: the
    folder, relative to the experiment file, the reports are copied to (kept_names): each row's comment names its copy.
    """
    tables = []
    for path, kept in zip(paths, kept_names(paths)):
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
        tables += [dataclasses.replace(t, shown_as=f"{kept_in}/{kept}") if kept_in else t for t in found]
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
