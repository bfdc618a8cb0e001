"""The entries an import writes for what it read: a [[benchmarks]] entry per figure, a [hardware.<key>] entry per
machine and job, and a claim per report row (one the lab measures, or one that says why it cannot be reproduced)."""

from __future__ import annotations

from harness.bdn.grouping import ImportedGroup
from harness.bdn.machines import ImportedHardware
from harness.bdn.report_tables import Row
from harness.bdn.toml_text import toml_value as _toml
from harness.config.experiment.experiment_schema import TODO
from harness.config.lab.labs import LabSpec


def benchmark_lines(groups: list[ImportedGroup], ids: dict, lab: LabSpec, lab_group: dict[str, str]) -> list[str]:
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
            category = f" in category {row.category}" if row.category else ""
            of = f"{row.method}{f' ({params})' if params else ''}{category}"
            out += [
                "[[benchmarks]]",
                f"id = {_toml(bench)}",
                f"group = {_toml(lab_group[g.id])}",
                f"variant = {_toml(f'{TODO}: the {lab.name} variant of {row.method}')}",
                f"dataset = {_toml(f'{TODO}: the dataset of {of}')}",
                "",
            ]
    return out


def hardware_lines(entries: list[ImportedHardware]) -> list[str]:
    """One [hardware.<key>] entry per machine and job, with comments on its ISA level, CPU and runtimes."""
    out: list[str] = []
    for hw in entries:
        out += [
            f"[hardware.{hw.key}]",
            f"description = {_toml(hw.description)}",
            f"runtime = {_toml(hw.runtime)}",
            f"# {hw.isa_comment}",
            f"isa_level = {_toml(hw.isa_level)}",
        ]
        if hw.cpu_comment:
            out.append(f"# {hw.cpu_comment}")
        if hw.microarchitecture:
            out.append(f"microarchitecture = {_toml(hw.microarchitecture)}")
        if hw.cpu_vendor:
            out.append(f"cpu_vendor = {_toml(hw.cpu_vendor)}")
        if hw.unserved:
            out.append(f"# every claim of this hardware says cannot reproduce: {hw.unserved}")
        out += [f"# {hw.runtime_comment}", f"lab_runtimes = {_toml(hw.lab_runtimes)}", ""]
    return out


def row_claim(group: ImportedGroup, row: Row, ids: dict) -> dict:
    """One row the lab measures as a claim's fields, in the order a reader expects them."""
    printed = group.ratios_here and row.ratio is not None
    claim: dict = {
        "scenario": group.scenario,
        "published_variant": row.method,
        "published_baseline": group.baseline.method if group.ratios_here else "none",
        "benchmark": ids[(id(group.table), row.line)],
        "baseline" if printed else "derived_baseline": ids[(id(group.table), group.baseline.line)],
    }
    claim |= _figures(row, printed)
    claim["hardware"] = group.hardware.key
    if printed and row is group.baseline and row.ratio != 1.0:  # a Baseline=Yes row of a noisy baseline
        claim["ratio"] = 1.0
        claim[
            "note"
        ] = f"the baseline's own row: 1 by definition (BenchmarkDotNet printed {row.ratio}, a mean of ratios)"
    elif row.ratio is not None and not group.ratios_here and group.table.has_ratio:
        claim["note"] = (
            f"the published ratio {row.ratio} is to a baseline outside these rows (another job's: a ratio across "
            "runtimes, claimed in this figure's 'across runtimes' scenario where the report has it on each; or a "
            "row not read); here it is derived from the means"
        )
    elif group.table.has_ratio and row.ratio is None:
        claim["note"] = "no ratio printed for this row; derived from the published means"
    return claim


def unserved_claim(group: ImportedGroup, row: Row) -> dict:
    """A row of a job no lab runtime serves (.NET Framework, Mono, a Native AOT build the lab lacks): its figures as
    published, no benchmark, and why it cannot be reproduced (never a .NET stand-in measured in its place)."""
    printed = group.ratios_here and row.ratio is not None
    claim: dict = {
        "scenario": group.scenario,
        "published_variant": row.method,
        "published_baseline": group.baseline.method if group.ratios_here else "none",
    }
    return (
        claim | _figures(row, printed) | {"hardware": group.hardware.key, "cannot_reproduce": group.hardware.unserved}
    )


def _figures(row: Row, ratio: bool) -> dict:
    """The row's published mean, allocation (with the rounding of a KB or MB figure) and, where asked, its ratio."""
    figures: dict = {}
    if row.mean_ns is not None:
        figures |= {"mean_ns": float(row.mean_ns), "published_mean": row.mean_text} | row.statistics
    if row.allocated_bytes is not None:
        figures["allocated_bytes"] = row.allocated_bytes
        if row.allocated_tolerance_bytes:  # the rounding of a figure printed in KB or MB
            figures["allocated_tolerance_bytes"] = row.allocated_tolerance_bytes
    if ratio:
        figures["ratio"] = row.ratio
    return figures
