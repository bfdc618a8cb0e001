"""The Markdown of the site's pages (analysis/site/build.py renders each to HTML): the index, a write-up's page and a
figure's page. Every string from the store is untrusted and goes through `literal` (shown as text, bounded); links
are made here only to the site's own pages and to run reports that exist (`reports`: run id → link)."""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd

from analysis.compute.change_points import ALPHA
from analysis.compute.figure_series import FigureSeries
from analysis.formatting.tables import format_interval, markdown_table
from analysis.render.untrusted import literal
from analysis.site.names import INDEX_PAGE

#: A write-up's page shows its figures' verdicts in at most this many runs, the newest.
RUN_COLUMNS = 8
#: A verdict shown in a table cell: its word, without the reason after ': '.
VERDICT_CHARS = 40

_METHOD = (
    "A change point is a place between two runs of one series (host, runtime, ISA level) where the figure's pooled "
    "ratio after differs from the one before beyond both sides' 99 % intervals (the runs' scatter beyond their own "
    f"intervals added to them), at a family-wise error of {ALPHA:.0%} per series: the larger of a Bonferroni "
    "quantile over the places tried and one from histories without a step simulated from the same intervals "
    "(analysis/compute/change_points.py; its detection rate and false alarms on synthetic histories with known steps "
    "and noise: `python3 -m analysis change-study`, docs/store.md)."
)


def _run(run_id: str, reports: Mapping[str, str]) -> str:
    link = reports.get(run_id)
    return f"[{literal(run_id, 80)}]({link})" if link else literal(run_id, 80)


def _verdict(value: object) -> str:
    return literal(str(value).split(": ")[0], VERDICT_CHARS) if pd.notna(value) else "—"


def _commit(commit: object, dirty: object) -> str:
    if not isinstance(commit, str) or not commit:
        return "—"
    return literal(commit[:10] + (" (uncommitted changes)" if dirty is True else ""), 40)


def index_markdown(
    writeups: list[tuple[str, str, int, int, int]], runs: pd.DataFrame, reports: Mapping[str, str], store_name: str
) -> str:
    """The site's index: each write-up (id, page link, figures, runs that judged it, change points found) and every
    run of the store, newest first."""
    lines = [
        "# JSON serializer lab: every published figure across runs",
        "",
        f"From the results store `{literal(store_name, 120)}`: {len(runs)} runs, {len(writeups)} write-ups. "
        "A write-up's page shows its figures' verdicts run by run; a figure's page its measured ratio in every run, "
        "where it moved, and the runs' reports.",
        "",
        "## Write-ups",
        "",
    ]
    rows = [
        [f"[{literal(exp, 40)}]({link})", str(figures), str(judged), str(changes)]
        for exp, link, figures, judged, changes in writeups
    ]
    lines.append(markdown_table(["write-up", "figures", "runs that judged it", "change points"], rows))
    lines += ["## Runs", ""]
    rows = [
        [
            _run(str(r.run_id), reports),
            literal(r.started_at or "—", 40),
            literal(r.profile, 40),
            literal(r.cpu_model if isinstance(r.cpu_model, str) else "unknown CPU", 80),
            _commit(r.git_commit, r.git_dirty),
            str(r.verdict_count),
        ]
        for r in runs.iloc[::-1].itertuples()
    ]
    lines.append(markdown_table(["run", "started", "profile", "host CPU", "commit", "verdicts"], rows))
    return "\n".join(lines)


def writeup_markdown(
    experiment: str,
    verdicts: pd.DataFrame,
    figure_links: Mapping[tuple[str, str], str],
    changes: Mapping[tuple[str, str], int],
    ladders: list[str],
    explain_run: str | None,
    reports: Mapping[str, str],
) -> str:
    """A write-up's page: its figures' primary verdicts in the newest RUN_COLUMNS runs, change points per figure, and
    the ladder charts of its latest explain run."""
    runs = list(dict.fromkeys(verdicts["run_id"]))[-RUN_COLUMNS:]
    lines = [f"# Write-up {literal(experiment, 80)}", "", f"[All write-ups](../{INDEX_PAGE})", ""]
    lines += [
        f"Each published figure's verdict in the newest {len(runs)} of the runs that judged it (oldest left); "
        "a figure's page has its whole history and where it moved.",
        "",
    ]
    table = verdicts[verdicts["run_id"].isin(runs)]
    headers = ["figure", "metric", "change points", *[f"run {i}" for i in range(1, len(runs) + 1)]]
    rows = []
    for (claim, metric), lines_of in table.groupby(["claim", "metric"], sort=True):
        by_run = {str(r.run_id): r for r in lines_of.itertuples()}
        cells = [
            f"{_verdict(by_run[run].verdict)} ({format_interval(by_run[run].measured_ratio, by_run[run].measured_ratio_lower, by_run[run].measured_ratio_upper)})"  # noqa: E501
            if run in by_run
            else "—"
            for run in runs
        ]
        link = figure_links.get((str(claim), str(metric)))
        name = f"[{literal(claim, 120)}]({link})" if link else literal(claim, 120)
        rows.append([name, literal(metric, 20), str(changes.get((str(claim), str(metric)), 0)), *cells])
    lines.append(markdown_table(headers, rows))
    lines += ["Runs: " + "; ".join(f"run {i}: {_run(run, reports)}" for i, run in enumerate(runs, 1)), ""]
    lines += ["## Why figures do not reproduce: the latest explain run", ""]
    if explain_run is None:
        lines.append("No explain run of this write-up is in the store (`just explain --experiment ID`).")
    else:
        lines.append(f"Run {_run(explain_run, reports)}: each figure beside the same figure with one factor switched.")
        lines += ["", *(f"![ladder {i}]({name})\n" for i, name in enumerate(ladders, 1))]
        if not ladders:
            lines.append("Its report has no ladder chart (render it: `just report RUN`).")
    return "\n".join(lines) + "\n"


def figure_markdown(
    experiment: str,
    claim: str,
    metric: str,
    history: pd.DataFrame,
    series: list[FigureSeries],
    chart: str | None,
    reports: Mapping[str, str],
) -> str:
    """A figure's page: its history chart, each series' change points, and every reading with its run."""
    published = history["published_ratio"].dropna()
    lines = [
        f"# {literal(experiment, 80)}: {literal(claim, 200)} ({literal(metric, 20)})",
        "",
        f"[Write-up {literal(experiment, 80)}]({INDEX_PAGE}) · [all write-ups](../{INDEX_PAGE})",
        "",
        f"Published ratio: {published.iloc[-1]:.3g}×." if not published.empty else "No published ratio.",
        "",
    ]
    if chart:
        lines += [f"![history of {literal(claim, 120)}]({chart})", ""]
    lines += ["## Change points", ""]
    for one in series:
        found = "; ".join(c.sentence() for c in one.changes) or "none: no run moved beyond the intervals"
        lines.append(
            f"- {literal(one.label, 160)} ({literal(one.benchmark, 80)} / {literal(one.reference, 80)}, "
            f"{len(one.readings)} runs): {literal(found, 2000)}"
        )
    lines += ["", _METHOD, "", "## Every reading", ""]
    rows = [
        [
            _run(str(r.run_id), reports),
            literal(r.started_at or "—", 40),
            literal(r.cpu_model if isinstance(r.cpu_model, str) else "unknown CPU", 80),
            literal(r.runtime, 40),
            literal(r.isa_level, 40),
            _commit(r.git_commit, r.git_dirty),
            format_interval(r.measured_ratio, r.measured_ratio_lower, r.measured_ratio_upper),
            _verdict(r.verdict),
            "yes" if r.primary is True else "",
        ]
        for r in history.itertuples()
    ]
    headers = [
        "run",
        "started",
        "host CPU",
        "runtime",
        "ISA level",
        "commit",
        "measured [99 % CI]",
        "verdict",
        "primary",
    ]
    lines.append(markdown_table(headers, rows))
    return "\n".join(lines)
