"""`just site`: the history site built from the results store, as static HTML pages (report.html's renderer: no script,
the same Content-Security-Policy, charts embedded), into a folder made whole beside the old one and then put in its
place, so a site being looked at is never half written.

    <site>/index.html                         write-ups and runs
    <site>/<write-up>/index.html              its figures' verdicts over runs, its latest explain run's ladders
    <site>/<write-up>/<figure>.html (+ .png)  one figure's history, change points and readings

Links to a run's report (`<results>/<run>/report/report.html`) are made only for a run whose report exists when the
site is built; the site is meant to sit in the results folder (the default, results/site) for them to work.
"""

from __future__ import annotations

import os
import pathlib
import shutil
import sqlite3
from dataclasses import dataclass

import pandas as pd

from analysis.charts.figure_history import history_chart
from analysis.charts.save import render_figure
from analysis.compute.figure_series import figure_series
from analysis.render.html import MAX_IMAGE_BYTES, render_html
from analysis.site.names import INDEX_PAGE, figure_page, run_report_link, safe_run_id, writeup_folder
from analysis.site.pages import figure_markdown, index_markdown, writeup_markdown
from analysis.store import queries
from analysis.store.database import StoreError, open_store
from harness.model.folder.run_folder import CHARTS_DIR, REPORT_DIR, REPORT_HTML

#: At most this many ladder charts of an explain run on a write-up's page.
MAX_LADDERS = 80
_PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


@dataclass(frozen=True)
class SiteSummary:
    """What a build wrote: where, and how many write-ups, figures and change points."""

    path: pathlib.Path
    writeups: int
    figures: int
    changes: int

    def line(self) -> str:
        return (
            f"{self.path / 'index.html'}: {self.writeups} write-ups, {self.figures} figures, "
            f"{self.changes} change points (look: python3 -m http.server -d {self.path})"
        )


def _reports(runs: pd.DataFrame, results_dir: pathlib.Path, up: int) -> dict[str, str]:
    """Each run whose report exists in `results_dir`, with the link to it from a page `up` folders below the site."""
    found = {}
    for run_id in runs["run_id"].astype(str):
        if safe_run_id(run_id) and (results_dir / run_id / REPORT_DIR / REPORT_HTML).is_file():
            found[run_id] = run_report_link(run_id, up)
    return found


def _page(folder: pathlib.Path, name: str, markdown_text: str, up: int) -> None:
    (folder / name).write_text(render_html(markdown_text, folder, up))


def _ladders(results_dir: pathlib.Path, run_id: str | None, experiment: str, folder: pathlib.Path) -> list[str]:
    """The explain run's ladder charts of the write-up copied beside its page; their new names."""
    if run_id is None or not safe_run_id(run_id):
        return []
    charts = results_dir / run_id / REPORT_DIR / CHARTS_DIR
    names = []
    for number, source in enumerate(sorted(charts.glob("*-explained-*.png"))[:MAX_LADDERS], 1):
        if not source.name.startswith(f"{experiment}-explained-") or source.is_symlink():
            continue
        with source.open("rb") as file:
            data = file.read(MAX_IMAGE_BYTES + 1)  # a bigger file is not read whole only to be refused
        if len(data) > MAX_IMAGE_BYTES or not data.startswith(_PNG_MAGIC):
            continue
        names.append(f"ladder-{number:02d}.png")
        (folder / names[-1]).write_bytes(data)
    return names


def _writeup(
    store: sqlite3.Connection,
    experiment: str,
    figures: pd.DataFrame,
    site: pathlib.Path,
    results_dir: pathlib.Path,
    reports: dict[str, str],
) -> tuple[int, int, int]:
    """A write-up's folder: a page per figure and the write-up's page; its figures, the runs that judged it and its
    change points."""
    folder = site / writeup_folder(experiment)
    folder.mkdir()
    links: dict[tuple[str, str], str] = {}
    changes: dict[tuple[str, str], int] = {}
    for figure in figures.itertuples():
        claim, metric = str(figure.claim), str(figure.metric)
        history = queries.figure_history(store, experiment, claim, metric)
        series = figure_series(history)
        page = figure_page(claim, metric)
        chart = None
        if not history.empty:
            runs = list(dict.fromkeys(history["run_id"].astype(str)))
            published = history["published_ratio"].dropna()
            fig = history_chart(
                series,
                runs,
                float(published.iloc[-1]) if not published.empty else None,
                f"{experiment}: {claim} ({metric})",
                f"{len(runs)} runs, {runs[0]} to {runs[-1]}",
            )
            chart = page.removesuffix(".html") + ".png"
            (folder / chart).write_bytes(render_figure(fig)["png"])
        _page(folder, page, figure_markdown(experiment, claim, metric, history, series, chart, reports), 2)
        links[(claim, metric)] = page
        changes[(claim, metric)] = sum(len(s.changes) for s in series)
    explain_run = queries.latest_run_of_profile(store, experiment, "explain")
    ladders = _ladders(results_dir, explain_run, experiment, folder)
    verdicts = queries.writeup_verdicts(store, experiment)
    page = writeup_markdown(experiment, verdicts, links, changes, ladders, explain_run, reports)
    _page(folder, INDEX_PAGE, page, 2)
    return len(figures), int(verdicts["run_id"].nunique()), sum(changes.values())


def build_site(store_path: pathlib.Path, out: pathlib.Path, results_dir: pathlib.Path) -> SiteSummary:
    """The site of the store at `store_path` written to `out` (replacing what was there once it is whole)."""
    if not store_path.is_file():
        raise StoreError(
            f"no results store at {store_path}", "import the run folders first: just store (docs/store.md)"
        )
    store = open_store(store_path)
    building = out.with_name(f".{out.name}.building-{os.getpid()}")
    shutil.rmtree(building, ignore_errors=True)
    building.mkdir(parents=True)
    try:
        runs = queries.runs(store)
        figures = queries.figures(store)
        deep = _reports(runs, results_dir, 1)
        listed, changes_total = [], 0
        for experiment, mine in figures.groupby("experiment", sort=True):
            count, judged, changes = _writeup(store, str(experiment), mine, building, results_dir, deep)
            listed.append((str(experiment), f"{writeup_folder(str(experiment))}/index.html", count, judged, changes))
            changes_total += changes
        _page(building, INDEX_PAGE, index_markdown(listed, runs, _reports(runs, results_dir, 0), store_path.name), 1)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    finally:
        store.close()
    old = out.with_name(f".{out.name}.old-{os.getpid()}")
    if out.exists():
        out.rename(old)
    building.rename(out)
    shutil.rmtree(old, ignore_errors=True)
    return SiteSummary(out, len(listed), len(figures), changes_total)
