"""report.md: the run's story in one markdown document (text only; the writer saves it)."""

from __future__ import annotations

import dataclasses
from collections import Counter
from dataclasses import dataclass
from typing import Any

import pandas as pd

from analysis.compute.aggregate import isa_rank, median_relative_ci
from analysis.compute.cold_start import cold_start_markdown
from analysis.compute.conformance import conformance_markdown
from analysis.compute.cross_language import CROSS_LANGUAGE_CHARTS, cross_language_markdown
from harness.model.records import DEFAULT_RUNTIME, Cell
from analysis.defaults import PARITY_BAND, TOLERANCE
from analysis.compute.noise import noise_markdown
from analysis.compute.precision import precision_markdown
from analysis.compute.timing import timing_markdown
from analysis.compute.verdicts import BYTES_ONLY, coverage
from analysis.render.tables import experiment_markdown, markdown_table, reproduction_markdown
from analysis.compute.undecided import undecided_markdown
from harness.config.experiments import Experiment


def header_markdown(env: dict[str, Any], run: dict[str, Any], cells: pd.DataFrame) -> str:
    """Title and one paragraph saying where, when, on what and with what this was measured."""
    labs = env.get("labs", {})
    runtimes = "; ".join(
        f"lab {name}: {lab['env'].get('runtime_description', lab['env'].get('runtime'))}, "
        + ", ".join(f"{k} {v}" for k, v in lab["env"].get("libraries", {}).items())
        for name, lab in labs.items()
    )
    dirty = " (uncommitted changes)" if env.get("git_dirty") else ""
    return (
        f"# JSON serializer lab report — run {run.get('run_id', '?')}\n\n"
        f"Measured {env.get('captured_at', '?')} on **{env.get('cpu_model', '?')}** ({env.get('logical_cpus', '?')} "
        "logical CPUs, "
        f"{env.get('machine', '?')}, {'virtual machine' if env.get('hypervisor') else 'bare metal or undetected VM'}), "
        f"{env.get('os', '?')}, kernel {env.get('kernel', '?')}. {runtimes}. Profile `{run.get('profile', '?')}`; "
        f"each cell ran in a fresh process pinned to CPU {env.get('lab_cpuset', '?')} ({env.get('backend', '?')} "
        "backend). "
        f"Lab commit `{(env.get('git_commit') or '?')[:12]}`{dirty}.\n"
    )


def summary_markdown(cells: pd.DataFrame, verdicts: pd.DataFrame) -> str:
    """Counts of cells and verdicts, and the precision of the run."""
    counts = Counter(cells["status"])
    precision = median_relative_ci(cells)
    ratio_precision = median_relative_ci(cells, "ratio_rel_ci99")
    judged = verdicts[verdicts["primary"]] if not verdicts.empty else verdicts
    primary = Counter(judged.loc[judged["verdict"] != BYTES_ONLY, "verdict"]) if not verdicts.empty else Counter()
    in_bytes = Counter(judged["bytes_verdict"].dropna()) if "bytes_verdict" in judged else Counter()

    def pct(value: float | None) -> str:
        return "—" if value is None else f"{100 * value:.2f}%"

    lines = [
        "## Summary\n",
        f"- Cells: {len(cells)} — " + ", ".join(f"{n} {s}" for s, n in sorted(counts.items())) + ".",
        f"- Median relative 99% CI half-width, over processes: {pct(ratio_precision)} for ratios to the baseline "
        f"(paired processes), {pct(precision)} for cell means.",
        "- Reproduction verdicts (at the ISA level matching each published CPU): "
        + (", ".join(f"{n} {v}" for v, n in primary.most_common()) or "none")
        + ".",
        *(
            [
                "- Published Allocated figures, in bytes: "
                + ", ".join(f"{n} {v}" for v, n in in_bytes.most_common())
                + "."
            ]
            if in_bytes
            else []
        ),
    ]
    return "\n".join(lines) + "\n"


def isa_markdown(env: dict[str, Any]) -> str:
    """What each ISA level turned out to be, as read back inside the lab process."""
    rows = []
    for lab_name, lab in env.get("labs", {}).items():
        for level in sorted(lab.get("isa_levels", {}).values(), key=lambda lvl: isa_rank(lvl["level"])):
            switches = ", ".join(f"`{k}={v}`" for k, v in level["switches"].items()) or "none"
            rows.append(
                [
                    lab_name,
                    level["level"],
                    switches,
                    level["isa_effective"],
                    level["state"] + (f": {level['detail']}" if level["detail"] else ""),
                ]
            )
    if not rows:
        return ""
    return (
        "## ISA levels\n\nEach level's switches were applied to a probe process, and again to every measured process, "
        "whose in-process readback is stored in each cell's `env.json` and checked against the level.\n\n"
        + markdown_table(["Lab", "Level", "Switches", "Effective ISA (read back)", "State"], rows)
    )


def runtimes_markdown(experiments: list[Experiment], verdicts: pd.DataFrame, env: dict[str, Any]) -> str:
    """Which lab runtime stood in for each published runtime (the one its primary verdicts were read on)."""
    if verdicts.empty or set(verdicts["runtime"]) <= {DEFAULT_RUNTIME, "—"}:
        return ""
    versions = {
        lab.get("runtime"): lab["env"].get("runtime_description")
        for lab in env.get("labs", {}).values()
        if lab.get("runtime")
    }
    rows = []
    for exp in experiments:
        mine = verdicts[(verdicts["experiment"] == exp.id) & verdicts["primary"] & (verdicts["runtime"] != "—")]
        for runtime_text, hits in mine.groupby("published_runtime", sort=False):
            for runtime in dict.fromkeys(hits["runtime"]):
                wanted = next((h.lab_runtimes for h in exp.hardware.values() if h.runtime == runtime_text), ())
                if runtime in runtime_text.split():
                    how = "the published runtime"
                elif not wanted:
                    how = "stand-in: the lab's default runtime"
                else:
                    how = "stand-in" + (
                        "" if runtime == wanted[0] else f" ({wanted[0]}, preferred, is not built by this lab)"
                    )
                rows.append(
                    [
                        exp.id,
                        runtime_text,
                        runtime,
                        versions.get(runtime, "—"),
                        how,
                        str(len(hits[hits["runtime"] == runtime])),
                    ]
                )
    return (
        "## Runtimes: published and measured\n\nEach figure's primary verdict is read on the lab runtime standing in "
        "for the "
        "runtime it was published on (the experiment's `lab_runtimes`, first one the lab is built for). Each runtime "
        "is a "
        "self-contained build of the lab whose version was read back inside every measured process. Other runtimes of "
        "the run are verdicts too, marked not primary.\n\n"
        + markdown_table(
            ["Experiment", "Published on", "Lab runtime", "Measured runtime", "", "Primary verdicts"], rows
        )
    )


def versions_markdown(experiments: list[Experiment], env: dict[str, Any], cells: pd.DataFrame) -> str:
    """Each write-up's library versions beside the versions this run loaded (read inside the lab processes of the
    builds that ran the experiment's cells; one version per runtime where they differ)."""
    labs = env.get("labs", {})
    rows = []
    for exp in experiments:
        mine = cells[cells["experiment"] == exp.id]
        if mine.empty:
            continue
        targets = [
            t
            for t in dict.fromkeys(
                Cell.target_of(lab, runtime) for lab, runtime in zip(mine["lab"], mine["runtime_requested"])
            )
            if t in labs
        ]
        for library, published in exp.published_versions.items():
            versions = [
                v for v in dict.fromkeys(labs[t]["env"].get("libraries", {}).get(library) for t in targets) if v
            ]
            measured = ", ".join(versions) or "not loaded"
            if library.startswith("System.Text.Json") and versions:
                runtimes = "; ".join(
                    dict.fromkeys(
                        str(labs[t]["env"].get("runtime_description") or labs[t]["env"].get("runtime", "?"))
                        for t in targets
                    )
                )
                measured = f"in-box {measured} ({runtimes})"
            same = "same" if versions == [published] else "**differs**"
            rows.append([exp.id, library, published, measured, same])
    if not rows:
        return ""
    return (
        "## Versions: published and measured\n\nThe versions each write-up used, beside the ones this run loaded. "
        "Where the "
        "NuGet feed of this machine does not serve the published version, the nearest served one is used and the "
        "difference is part of any disagreement.\n\n"
        + markdown_table(["Experiment", "Library", "Published", "Measured here", ""], rows)
    )


def verification_markdown(cells: pd.DataFrame) -> str:
    """Which cells passed the field-by-field and round-trip check, and which did not."""
    first = cells.sort_values("isa_rank").drop_duplicates(["experiment", "benchmark"])
    failed = first[first["verification_status"] == "failed"]
    passed = int((first["verification_status"] == "passed").sum())
    text = (
        "## What was verified\n\nBefore timing, every measured process deserialized its dataset with its variant, "
        "compared the "
        "object field by field with the dataset (JSON names matched to properties ignoring case and attributes), and "
        f"checked that serializing and deserializing again preserved it. {passed} benchmark(s) passed; "
        f"{len(failed)} failed and are marked VOID / ⚠ / hatched wherever they appear.\n"
    )
    if not failed.empty:
        text += "\n" + markdown_table(
            ["Experiment", "Benchmark", "Variant × dataset", "What differs"],
            [
                [r["experiment"], r["benchmark"], f"{r['variant']} × {r['dataset']}", r["verification_message"]]
                for _, r in failed.iterrows()
            ],
        )
    return text


def experiments_markdown(
    experiments: list[Experiment], cells: pd.DataFrame, levels: list[str], charts: dict[str, list[str]]
) -> str:
    """Per experiment: its tables, charts and CSV."""
    parts = []
    for exp in experiments:
        if exp.id not in set(cells["experiment"]):
            continue
        images = "\n".join(
            f"![{name}](charts/{name}.png) ([SVG](charts/{name}.svg))" for name in charts.get(exp.id, [])
        )
        notes = "\n".join(f"- `{b.id}`: {b.note}" for b in exp.benchmarks.values() if b.note)
        parts.append(
            f"## Experiment {exp.id}: {exp.title}\n\nWrite-up: "
            f"{exp.writeup}.\n\n{experiment_markdown(exp, cells, levels)}\n"
            f"{images}\n\n{notes}\n\nAll rows: [tables/{exp.id}.csv](tables/{exp.id}.csv).\n"
        )
    return "\n".join(parts)


def coverage_markdown(experiments: list[Experiment], cells: pd.DataFrame, verdicts: pd.DataFrame) -> str:
    """How every published figure of the write-ups is accounted for in this run."""
    table = coverage(experiments, cells, verdicts)
    if table.empty:
        return ""
    counts = table.groupby(["experiment", "status"]).size().unstack(fill_value=0)
    statuses = list(counts.columns)
    rows = [[exp, *[int(counts.loc[exp, s]) for s in statuses], int(counts.loc[exp].sum())] for exp in counts.index]
    rows.append(["all", *[int(counts[s].sum()) for s in statuses], int(counts.values.sum())])
    return (
        "### Every published figure\n\n**compared**: a measured ratio and verdict below; **baseline, measured**: the "
        "figure is its table's baseline (ratio 1 by definition), and its cell is measured (absolute time in the "
        "experiment's table); **cannot reproduce**: the reason is in the table below; **failed**: the library could "
        "not run here (reason below); **not in this run**: the profile did not plan it (`just run-all full` does). "
        "One row per figure in `tables/coverage.csv`.\n\n" + markdown_table(["Experiment", *statuses, "Figures"], rows)
    )


def reproduction_section(
    experiments: list[Experiment], verdicts: pd.DataFrame, cells: pd.DataFrame | None = None
) -> str:
    """The published-vs-measured table with its legend and rules."""
    hardware = {h.key: h for exp in experiments for h in exp.hardware.values()}
    legend = "\n".join(
        f"- **{h.runtime}** ({h.key}): {h.description}; compared at ISA level `{h.isa_level}`."
        for h in hardware.values()
    )
    return (
        "## Reproduction of published claims\n\n"
        "Ratios to each claim's baseline are compared, never absolute times, and the measured ratio's 99% interval "
        "(over paired processes) is judged, not its point. **reproduced**: the whole interval lies within "
        f"±{TOLERANCE:.0%} of the "
        "published ratio; **inconclusive**: the interval straddles that band's edge (or there is only one process); "
        "**same direction only**: the interval lies outside the band, on the published side of 1 (beyond "
        f"±{PARITY_BAND:.0%}); "
        "**not reproduced**: otherwise; **void: verification failed**: the variant or its baseline does not reproduce "
        "the "
        "input, so the published comparison measured a different thing. Allocations are deterministic per operation "
        "and are "
        "judged as points; each published Allocated figure also gets a verdict in bytes per operation (last but one "
        "column): "
        "**equal**, **within tolerance** (the experiment's or the claim's `allocated_tolerance_bytes`, e.g. the "
        "rounding of a "
        "figure printed in KB) or **differs**; a table's baseline has no ratio, only that (**bytes only**). "
        "Verdicts at every ISA level: [tables/reproduction.csv](tables/reproduction.csv).\n\n"
        f"{legend}\n\n"
        + ("" if cells is None else coverage_markdown(experiments, cells, verdicts) + "\n")
        + reproduction_markdown(verdicts)
    )


def failures_markdown(cells: pd.DataFrame) -> str:
    """Cells without a valid measurement, with their error and log."""
    failed = cells[cells["status"] == "failed"]
    if failed.empty:
        return ""
    return "## Failed cells\n\n" + markdown_table(
        ["Cell", "Error", "Log"], [[r["cell_id"], r["error"], f"`{r['log_path']}`"] for _, r in failed.iterrows()]
    )


def method_markdown(run: dict[str, Any]) -> str:
    """How the numbers were made, in a few lines."""
    stopping = run.get("stopping", {})
    caps = [
        f"{stopping[k]:g} s of machine time{per}"
        for k, per in (("group_time_cap_s", " per group"), ("cell_time_cap_s", " per cell"))
        if stopping.get(k) is not None
    ]
    rule = (
        f"at least {stopping.get('min_rounds', '?')} rounds, then more until every ratio of a group had a 99% CI "
        "within "
        f"±{100 * stopping['target_rel_ci']:.2g}% or the group reached {stopping.get('max_rounds')} rounds"
        + (" or " + " or ".join(caps) if caps else "")
        if stopping.get("target_rel_ci")
        else f"{stopping.get('min_rounds', '?')} round(s)"
    )
    budget = run.get("budget")
    if budget:
        rule += (
            f"; the whole session had a time budget of {budget['minutes']:g} min, shared across groups in rounds "
            "(each group as many as every later one could also have), which could cut a group short of that rule but "
            f"not below {budget['floor_rounds']} rounds"
        )
    engine = (
        "BenchmarkDotNet in-process (emit toolchain) inside one fresh lab process per cell and round, MemoryDiagnoser "
        "on. "
        if run.get("design") != "paired"
        else "One fresh lab process per group and round measures every cell of the group with the lab's paired engine: "
        "each cell "
        "warmed until the JIT is quiet, then rounds of short bursts (every cell once per round, in a fresh random "
        "order, each burst "
        "after a full collection, the loop's own overhead subtracted as BenchmarkDotNet does), bytes allocated read "
        "per burst; "
        "a process's ratio is the median of its per-round burst ratios, and its cell time the median of its bursts. "
        "Groups a "
        "process cannot hold (a lab without the paired verb, a group of one cell) ran under the interleaved design "
        "with "
        "BenchmarkDotNet or the lab's own engine (the Precision table names each group's design). "
    )
    return (
        "## Method\n\n"
        + engine
        + f"Design `{run.get('design', '?')}` ({DESIGN_TEXT.get(run.get('design'), '')}); {rule}. "
        "The process is the unit of replication: a cell's mean is the mean of its processes' means, with a Student-t "
        "99% interval "
        "over them; a ratio is the geometric mean of per-pair ratios (a benchmark's process over the baseline's "
        "process of the same "
        "round or duet), with a Student-t 99% interval on their logarithms. The within-process interval (iterations of "
        "one process) "
        "is kept as a diagnostic in tables/results.csv (`within_rel_ci99`): it ignores the process-to-process spread "
        "and is several "
        "times too narrow. Raw BenchmarkDotNet JSON, the process's env.json and verification.json are under `raw/`; "
        "logs under `logs/`.\n"
    )


#: One line per replication design, for the method section.
DESIGN_TEXT = {
    "sequential": "every cell of an ISA level once per round, in plan order",
    "interleaved": "one group at a time, its cells once per round in a fresh random order",
    "duet": "each benchmark at the same time as its baseline, on two CPUs swapped every round",
    "paired": "one group at a time, all its cells in one process per round, alternating in bursts",
}


#: The key of the cold-start charts in compose_report's `charts` (experiment ids key the others).
COLD_CHARTS = "cold-start"


@dataclass(frozen=True)
class ReportInputs:
    """Everything a report is computed from."""

    experiments: list[Experiment]
    cells: pd.DataFrame
    rows: pd.DataFrame
    verdicts: pd.DataFrame
    env: dict[str, Any]
    run: dict[str, Any]
    levels: list[str]
    calibrations: list[dict[str, Any]]
    timeline: list[dict[str, Any]] = dataclasses.field(default_factory=list)
    cold: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)  # analysis.cold_start.cold_table()
    cross_language: pd.DataFrame = dataclasses.field(
        default_factory=pd.DataFrame
    )  # analysis.cross_language.cross_language_table()
    conformance: pd.DataFrame = dataclasses.field(
        default_factory=pd.DataFrame
    )  # analysis.conformance.load_conformance()
    groups: list[dict[str, Any]] = dataclasses.field(default_factory=list)  # how each group stopped (groups.jsonl)


def compose_report(inputs: ReportInputs, charts: dict[str, list[str]]) -> str:
    """The whole report.md text."""
    i = inputs
    sections = [
        header_markdown(i.env, i.run, i.cells),
        summary_markdown(i.cells, i.verdicts),
        precision_markdown(i.cells, i.run, i.groups, i.rows),
        timing_markdown(i.rows, i.timeline),
        noise_markdown(i.rows, i.cells, i.calibrations, i.env),
        isa_markdown(i.env),
        runtimes_markdown(i.experiments, i.verdicts, i.env),
        versions_markdown(i.experiments, i.env, i.cells),
        verification_markdown(i.cells),
        reproduction_section(i.experiments, i.verdicts, i.cells),
        undecided_markdown(i.verdicts, i.run),
        experiments_markdown(i.experiments, i.cells, i.levels, charts),
        cold_start_markdown(i.cold, charts.get(COLD_CHARTS, [])),
        cross_language_markdown(i.cross_language, charts.get(CROSS_LANGUAGE_CHARTS, [])),
        conformance_markdown(i.conformance, i.cells),
        failures_markdown(i.cells),
        method_markdown(i.run),
    ]
    return "\n".join(s for s in sections if s)
