"""Writes a run's report folder: report.md, report.html, reproduction.md, tables/*.csv, charts/*.png|svg|csv;
and a two-run comparison folder.

Everything is computed first; this is the one place that touches the disk. When one chart or
table fails it is logged and the rest are still written.
"""

from __future__ import annotations

import dataclasses
import functools
import logging
import pathlib

import pandas as pd

from analysis.charts import compare_dot_chart, render_figure
from analysis.charts.style import alt_text, apply_theme, caption_for
from analysis.compute.aggregate import with_ratios
from analysis.compute.cold_start import cold_table, split_measures
from analysis.compute.conformance_matrix import conformance_matrix, load_conformance
from analysis.compute.cross_language import cross_language_table
from analysis.compute.load import load_run
from analysis.compute.replicates import summarize_cells
from analysis.compute.run_experiments import run_experiments
from analysis.compute.verdicts.chart_refs import ChartRef
from analysis.compute.verdicts.coverage import coverage
from analysis.compute.verdicts.explain_elsewhere import latest_explain_run, with_borrowed_explanations
from analysis.compute.verdicts.explained_by import with_setup_factors
from analysis.compute.verdicts.setup_factors import run_setup_table
from analysis.compute.verdicts.verdicts import verdict_table
from analysis.formatting.names import display_names_from
from analysis.formatting.tables import to_csv
from analysis.render.chart_specs import Caption, chart_specs
from analysis.render.html import render_html
from analysis.render.report import compose_report
from analysis.render.untrusted import neutral_markdown
from analysis.sections.inputs import ReportInputs
from analysis.sections.reproduction import reproduction_section
from analysis.tools.compare import (
    DEFAULT_THRESHOLD,
    compare_baseline_ratios,
    compare_cells,
    compare_verdicts,
    require_common_cells,
)
from analysis.tools.compare_report import comparison_markdown, run_notes
from analysis.tools.designs import agreement_markdown, design_markdown, design_summary, ratio_noise
from harness.config.lab.labs import load_labs
from harness.model.defaults import LABS_DIR
from harness.model.errors import HarnessError
from harness.model.folder.run_folder import (
    CHARTS_DIR,
    HOSTS_DIR,
    KEPT_LABS_DIR,
    REPORT_DIR,
    REPORT_HTML,
    REPORT_MD,
    TABLES_DIR,
)

log = logging.getLogger(__name__)


def _settings(cells: pd.DataFrame) -> list[str]:
    """Table columns and chart bars, in display order: ISA levels (per runtime when the run measured several)."""
    return cells.sort_values("setting_rank")["setting"].drop_duplicates().tolist()


def _write(path: pathlib.Path, data: str | bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data if isinstance(data, bytes) else data.encode())


def _write_markdown(path: pathlib.Path, text: str) -> str:
    """Writes a Markdown page with no raw HTML or disallowed link in it (analysis/render/untrusted.py); returns the
    text written."""
    text = neutral_markdown(text)
    _write(path, text)
    return text


class ChartsNotDrawnError(HarnessError):
    """The report was written, but some of its charts could not be drawn (each one's traceback is logged)."""

    def __init__(self, page: pathlib.Path, failures: list[str]) -> None:
        super().__init__(
            f"{page} is written, but {len(failures)} chart(s) could not be drawn: {'; '.join(failures)[:1500]}",
            "the traceback of each is above; the rest of the report stands. Report it with the run folder: a chart "
            "that fails on a run's data is a bug",
        )


def _write_chart(
    folder: pathlib.Path, name: str, make_figure, data: pd.DataFrame, failures: list[str]
) -> ChartRef | None:
    """Renders one chart to PNG and SVG with its data as CSV beside it; None when it fails (logged with its
    traceback and added to `failures`, so the report is still written and then said to be incomplete)."""
    try:
        figure = make_figure()
        alt = alt_text(figure)
        for fmt, content in render_figure(figure).items():
            _write(folder / f"{name}.{fmt}", content)
        _write(folder / f"{name}.csv", to_csv(data))
        return ChartRef(name, alt)
    except Exception as error:  # one broken chart must not lose the report
        log.exception("chart %s failed; the rest of the report is still written", name)
        failures.append(f"{name} ({type(error).__name__}: {str(error)[:200]})")
        return None


def _write_charts(
    out: pathlib.Path, inputs: ReportInputs, caption: Caption, failures: list[str]
) -> dict[str, list[ChartRef]]:
    written: dict[str, list[ChartRef]] = {}
    for spec in chart_specs(inputs, caption):
        ref = _write_chart(out / CHARTS_DIR, spec.name, spec.draw, spec.data, failures)
        if ref is not None:
            written.setdefault(spec.section, []).append(ref)
    return written


def _steady(data, experiments_dir: pathlib.Path | None = None):
    """(steady rows, cold rows, cells with ratios, the experiments the run measured, where they came from) of a loaded
    run: the experiment files as the run kept them (analysis/compute/run_experiments.py)."""
    rows, cold_rows = split_measures(data.rows)  # steady-state cells get ratios and verdicts; cold starts a table
    cells = with_ratios(summarize_cells(rows), rows)
    measured = set(cells["experiment"])
    found = run_experiments([data.directory], measured, experiments_dir)
    return rows, cold_rows, cells, [e for e in found.by_id.values() if e.id in measured], found.note


def _verdicts(data) -> tuple[pd.DataFrame, str]:
    """A loaded run's verdicts, and where its experiments came from when not from its own copy."""
    rows, _, cells, experiments, note = _steady(data)
    return verdict_table(experiments, cells, rows, run_labs_dir(data.directory)), note


def run_labs_dir(run_dir: pathlib.Path) -> pathlib.Path:
    """The labs as the run had them (its kept labs/), or lab/ for a run made before runs kept them."""
    kept = run_dir / KEPT_LABS_DIR
    return kept if any(kept.glob("*/lab.toml")) else LABS_DIR


def speed_of_light_labs(labs_dir: pathlib.Path = LABS_DIR) -> frozenset[str]:
    """The labs whose fastest verified cell is the cross-language section's reference (lab.toml `speed_of_light`)."""
    return frozenset(name for name, lab in load_labs(labs_dir, accepted=frozenset()).items() if lab.speed_of_light)


def report_inputs(data, experiments_dir: pathlib.Path | None = None) -> ReportInputs:
    """Everything the report of a loaded run shows, computed (nothing written)."""
    rows, cold_rows, cells, experiments, note = _steady(data, experiments_dir)
    labs_dir = run_labs_dir(data.directory)
    setup = run_setup_table(experiments, cells, data.environment, data.run, labs_dir)
    verdicts = verdict_table(experiments, cells, rows, labs_dir)
    explain = latest_explain_run(data.directory, data.environment, data.run.profile)  # what it switched, if any
    return ReportInputs(
        experiments=experiments,
        cells=cells,
        rows=rows,
        verdicts=with_setup_factors(with_borrowed_explanations(verdicts, explain), setup, experiments),
        env=data.environment,
        run=data.run,
        levels=_settings(cells),
        calibrations=data.calibrations,
        timeline=data.timeline,
        cold=cold_table(cold_rows),
        cross_language=cross_language_table(experiments, cells, speed_of_light_labs(labs_dir)),
        conformance=load_conformance(data.directory),
        groups=data.groups,
        setup=setup,
        set_aside=data.set_aside,
        noise_probe=data.noise_probe,
        experiments_note=note,
    )


def write_report(run_dir: pathlib.Path, experiments_dir: pathlib.Path | None = None) -> pathlib.Path:
    """Renders the report of one run folder; returns the path of report.md (report.html is written beside it)."""
    data = load_run(run_dir)
    with display_names_from(run_labs_dir(data.directory)):
        return _render(data, experiments_dir)


def _render(data, experiments_dir: pathlib.Path | None) -> pathlib.Path:
    inputs = report_inputs(data, experiments_dir)
    cells, cold, experiments = inputs.cells, inputs.cold, inputs.experiments
    out = data.directory / REPORT_DIR
    _write(out / TABLES_DIR / "results.csv", to_csv(cells))
    _write(out / TABLES_DIR / "rounds.csv", to_csv(data.rows))  # every replicate, steady and cold
    _write(out / TABLES_DIR / "reproduction.csv", to_csv(inputs.verdicts))
    _write(out / TABLES_DIR / "coverage.csv", to_csv(coverage(experiments, cells, inputs.verdicts)))
    if not inputs.setup.empty:
        _write(out / TABLES_DIR / "setup.csv", to_csv(inputs.setup))
    if not cold.empty:
        _write(out / TABLES_DIR / "cold-start.csv", to_csv(cold))
    if not inputs.cross_language.empty:
        _write(out / TABLES_DIR / "cross-language.csv", to_csv(inputs.cross_language))
    if not inputs.conformance.empty:
        _write(out / TABLES_DIR / "conformance.csv", to_csv(conformance_matrix(inputs.conformance)))
    for exp in experiments:
        _write(out / TABLES_DIR / f"{exp.id}.csv", to_csv(cells[cells["experiment"] == exp.id]))
    failures: list[str] = []
    charts = _write_charts(out, inputs, functools.partial(caption_for, data.environment, data.run), failures)
    inputs = dataclasses.replace(inputs, charts=charts)
    _write_markdown(out / "reproduction.md", reproduction_section(experiments, inputs.verdicts, cells))
    report = out / REPORT_MD
    text = _write_markdown(report, compose_report(inputs))
    _write(out / REPORT_HTML, render_html(text, out))
    if failures:
        raise ChartsNotDrawnError(report, failures)
    return report


def comparison_folder(run_a: pathlib.Path, run_b: pathlib.Path) -> pathlib.Path:
    """Where `just compare` writes: results/comparisons/A_vs_B, or, for two hosts of one run over several hosts
    (results/<run>/hosts/<host>), that run's comparisons/A_vs_B."""
    parent = run_a.parent
    if parent == run_b.parent and parent.name == HOSTS_DIR:
        parent = parent.parent
    return parent / "comparisons" / f"{run_a.name}_vs_{run_b.name}"


def write_comparison(
    run_a: pathlib.Path, run_b: pathlib.Path, out: pathlib.Path | None = None, threshold: float = DEFAULT_THRESHOLD
) -> pathlib.Path:
    """Compares two run folders; writes compare.md, cells.csv, baseline-ratios.csv and the chart; returns compare.md's
    path."""
    a, b = load_run(run_a), load_run(run_b)
    out = out or comparison_folder(a.directory, b.directory)
    cells, ratios = compare_cells(a.rows, b.rows, threshold), compare_baseline_ratios(a.rows, b.rows)
    require_common_cells(cells, a.rows, b.rows, a.directory.name, b.directory.name)
    (verdicts_a, note_a), (verdicts_b, note_b) = _verdicts(a), _verdicts(b)
    verdicts = compare_verdicts(verdicts_a, verdicts_b, ratios)
    notes = run_notes("a", a, note_a) + run_notes("b", b, note_b)
    for note in notes:
        log.warning("note: %s", note.replace("**", ""))  # on stderr too, beside the path printed
    _write(out / "cells.csv", to_csv(cells))
    _write(out / "baseline-ratios.csv", to_csv(ratios))
    _write(out / "verdicts.csv", to_csv(verdicts))
    caption = f"a: {caption_for(a.environment, a.run)}\nb: {caption_for(b.environment, b.run)}"
    title = f"{b.directory.name} / {a.directory.name}"
    failures: list[str] = []
    drawn = not cells.empty and _write_chart(
        out, "compare", lambda: compare_dot_chart(cells, title, threshold, caption), cells, failures
    )
    chart = "compare" if drawn else None
    path = out / "compare.md"
    _write_markdown(
        path, comparison_markdown(a.directory.name, b.directory.name, cells, ratios, threshold, chart, verdicts, notes)
    )
    if failures:
        raise ChartsNotDrawnError(path, failures)
    return path


def write_design_comparison(run_dirs: list[pathlib.Path], out: pathlib.Path | None = None) -> pathlib.Path:
    """Summarizes runs of the same cells under different designs; writes designs.md and the per-ratio CSV."""
    runs = [load_run(d) for d in run_dirs]
    out = out or runs[0].directory.parent / "comparisons" / "designs"
    per_ratio = pd.concat([ratio_noise(r) for r in runs], ignore_index=True)
    _write(out / "ratios.csv", to_csv(per_ratio))
    summary = design_summary(runs)
    _write(out / "designs.csv", to_csv(summary))
    path = out / "designs.md"
    _write_markdown(
        path,
        design_markdown(summary)
        + agreement_markdown(per_ratio)
        + "\nRuns: "
        + ", ".join(f"`{r.directory.name}`" for r in runs)
        + "\n",
    )
    return path


def write_chart(
    run_dir: pathlib.Path, name: str, out: pathlib.Path | None = None, theme: str = "light"
) -> dict[str, pathlib.Path]:
    """Re-renders one chart of a run (its file stem under report/charts/) for a post, in the light or dark theme;
    returns the written files by format. An unknown name is an error listing the run's charts."""
    data = load_run(run_dir)
    with display_names_from(run_labs_dir(data.directory)):
        specs = {
            spec.name: spec
            for spec in chart_specs(report_inputs(data), functools.partial(caption_for, data.environment, data.run))
        }
        if name not in specs:
            raise HarnessError(
                f"run {data.directory.name} has no chart '{name}'",
                "its charts: " + ", ".join(specs) if specs else "this run has no charts (nothing was measured)",
            )
        figure = apply_theme(specs[name].draw(), theme)
    out = out or data.directory / REPORT_DIR / CHARTS_DIR / theme
    paths = {}
    for fmt, content in render_figure(figure).items():
        paths[fmt] = out / f"{name}.{fmt}"
        _write(paths[fmt], content)
    return paths
