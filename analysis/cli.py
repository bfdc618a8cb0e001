"""Command line: `python3 -m analysis report RUN_DIR` re-renders a run's report without measuring;
`python3 -m analysis compare RUN_A RUN_B` compares two runs cell by cell; `python3 -m analysis chart RUN_DIR NAME`
re-renders one chart for a post; `python3 -m analysis store [RUN_DIR ...]` imports runs into the results store and
`python3 -m analysis site` builds the history site from it."""

from __future__ import annotations

import argparse
import pathlib
import sys
import time
from collections.abc import Callable

from analysis.compute.change_study import default_study, study_table
from analysis.compute.load import load_run
from analysis.defaults import SITE_PATH, STORE_PATH
from analysis.render.hosts_report import is_hosts_run, write_hosts_report
from analysis.render.html import render_html
from analysis.render.writer import write_chart, write_comparison, write_design_comparison, write_report
from analysis.site.build import build_site
from analysis.store.importer import Outcome, import_runs, rebuild_store, run_folders
from analysis.tools.anchors import write_anchors
from analysis.tools.compare import DEFAULT_THRESHOLD
from analysis.tools.rounds import write_rounds
from analysis.tools.sample import write_sample
from analysis.tools.screenshot import check_page
from analysis.tools.stopping_replay_report import write_replay
from harness.config.arguments import fraction
from harness.config.experiment.profiles import find_profile, load_profiles
from harness.model.defaults import RESULTS_DIR
from harness.model.errors import HarnessError
from harness.model.folder.run_folder import REPORT_DIR, REPORT_HTML
from harness.model.folder.run_records import REPORT
from harness.model.folder.store import RunStore


def _screenshot(run_dir: pathlib.Path) -> int:
    page = run_dir / REPORT_DIR / REPORT_HTML
    if not page.is_file():
        raise HarnessError(f"no report.html in {page.parent}", f"render the report first: just report {run_dir}")
    check = check_page(page)
    out = page.parent / "report-screenshot.png"
    out.write_bytes(check.screenshot_png)
    for problem in check.problems:
        print(problem, file=sys.stderr)
    print(
        f"{out} ({check.images} images, {check.broken_images} broken, {len(check.console_errors)} console errors, "
        f"{len(check.requests)} requests besides the page)"
    )
    return 0 if not check.problems else 1


def _parser() -> argparse.ArgumentParser:
    """The parser of `python3 -m analysis` and its subcommands, in the order `--help` lists them."""
    parser = argparse.ArgumentParser(prog="analysis", description="render a run's report")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run_commands(sub)
    _add_store_command(sub)
    _add_tool_commands(sub)
    return parser


def _add_run_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The subcommands that read runs: report, compare, designs, rounds and anchors."""
    report = sub.add_parser("report", help="write RUN_DIR/report/ from RUN_DIR/results.jsonl")
    report.add_argument("run_dir", type=pathlib.Path, help="results/<run-id> or results/latest")
    compare = sub.add_parser(
        "compare", help="every cell in both runs: b/a with 99%% CI, and the drift of each baseline ratio"
    )
    compare.add_argument("run_a", type=pathlib.Path)
    compare.add_argument("run_b", type=pathlib.Path)
    compare.add_argument(
        "--threshold",
        type=fraction,
        default=DEFAULT_THRESHOLD,
        help="relative change below which a cell is 'same' (default 0.05)",
    )
    compare.add_argument("--out", type=pathlib.Path, help="output folder (default results/comparisons/A_vs_B)")
    designs = sub.add_parser(
        "designs", help="ratio CI width per machine-minute for runs of the same cells under different designs"
    )
    designs.add_argument("run_dirs", type=pathlib.Path, nargs="+")
    designs.add_argument("--out", type=pathlib.Path, help="output folder (default: results/comparisons/designs)")
    rounds = sub.add_parser(
        "rounds",
        help="ratio CI width at equal machine time and measured share by rounds per paired process (profile 'rounds')",
    )
    rounds.add_argument("run_dir", type=pathlib.Path)
    rounds.add_argument("--out", type=pathlib.Path, help="output folder (default: RUN_DIR/rounds)")
    anchors = sub.add_parser(
        "anchors",
        help="what an anchor timed inside each process could buy ratios across runtimes: their per-pair spread, plain "
        "and anchored on each co-member of the group, and an A/A across processes",
    )
    anchors.add_argument("run_dir", type=pathlib.Path)
    anchors.add_argument("--out", type=pathlib.Path, help="output folder (default: RUN_DIR/anchors)")


def _add_store_command(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The results store's subcommand: run folders imported into one SQLite file (docs/store.md)."""
    store = sub.add_parser(
        "store",
        help="import run folders into the results store (one SQLite file): each run imported, unchanged or refused "
        "with why",
    )
    store.add_argument(
        "run_dirs", type=pathlib.Path, nargs="*", help="run folders (default: every run folder under --results-dir)"
    )
    store.add_argument(
        "--rebuild", action="store_true", help="make the store again from every run folder under --results-dir"
    )
    store.add_argument(
        "--store", type=pathlib.Path, default=STORE_PATH, help="the store file (default: results/store.sqlite)"
    )
    store.add_argument(
        "--results-dir", type=pathlib.Path, default=RESULTS_DIR, help="where the run folders are (default: results)"
    )
    site = sub.add_parser("site", help="build the history site (static pages) from the results store")
    site.add_argument("--store", type=pathlib.Path, default=STORE_PATH, help="default: results/store.sqlite")
    site.add_argument("--out", type=pathlib.Path, default=SITE_PATH, help="default: results/site")
    site.add_argument(
        "--results-dir", type=pathlib.Path, default=RESULTS_DIR, help="the runs' reports (default: results)"
    )
    study = sub.add_parser(
        "change-study", help="the change-point search on synthetic histories: detection rate and false alarms"
    )
    study.add_argument("--histories", type=int, default=400, help="histories per scenario (default 400)")
    study.add_argument("--seed", type=int, default=1)


def _add_tool_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The subcommands for publishing and replaying: sample, screenshot, chart and replay-stopping."""
    sample = sub.add_parser(
        "sample", help="copy RUN_DIR's report, made small, to docs/sample-report (the committed sample)"
    )
    sample.add_argument("run_dir", type=pathlib.Path)
    sample.add_argument("--out", type=pathlib.Path, default=pathlib.Path("docs/sample-report"))
    shot = sub.add_parser(
        "screenshot", help="render RUN_DIR/report/report.html in headless Chromium to report-screenshot.png"
    )
    shot.add_argument("run_dir", type=pathlib.Path)
    chart = sub.add_parser("chart", help="re-render one chart of RUN_DIR for a post (SVG and 2x PNG), light or dark")
    chart.add_argument("run_dir", type=pathlib.Path)
    chart.add_argument(
        "name", help="the chart's file stem under RUN_DIR/report/charts/, e.g. 004-ser-string-1000-ratio-bars"
    )
    theme = chart.add_mutually_exclusive_group()
    theme.add_argument("--light", dest="theme", action="store_const", const="light", help="light page (default)")
    theme.add_argument("--dark", dest="theme", action="store_const", const="dark", help="dark page")
    chart.add_argument("--out", type=pathlib.Path, help="output folder (default: RUN_DIR/report/charts/<theme>)")
    replay = sub.add_parser(
        "replay-stopping",
        help="the default profile's stopping rule and the claim-aware one replayed on LONG_RUN's processes within the "
        "machine time HOUR_RUN spent: verdicts and precision per rule",
    )
    replay.add_argument("long_run", type=pathlib.Path, help="a run with more rounds per group than an hour affords")
    replay.add_argument("hour_run", type=pathlib.Path, help="an hour-long run of the same profile: the machine time")
    replay.add_argument("--profile", default="default", help="whose stopping rule and floor (default: default)")
    replay.add_argument("--out", type=pathlib.Path, help="output folder (default: LONG_RUN/replay)")


def _report(args: argparse.Namespace) -> int:
    """`analysis report`: the run's report (a page over the hosts for a run over several), timed as the run's step."""
    started = time.monotonic()
    if is_hosts_run(args.run_dir):
        path = write_hosts_report(args.run_dir, write_report, render_html)
    else:
        path = write_report(args.run_dir)
    RunStore(args.run_dir.resolve()).record_step(REPORT, started, "the report: tables, charts and verdicts")
    print(path)
    return 0


def _compare(args: argparse.Namespace) -> int:
    """`analysis compare`: two runs compared cell by cell."""
    print(write_comparison(args.run_a, args.run_b, args.out, args.threshold))
    return 0


def _designs(args: argparse.Namespace) -> int:
    """`analysis designs`: runs of the same cells under different designs compared."""
    print(write_design_comparison(args.run_dirs, args.out))
    return 0


def _rounds(args: argparse.Namespace) -> int:
    """`analysis rounds`: a run's ratio intervals by rounds per paired process."""
    print(write_rounds(load_run(args.run_dir), args.out or args.run_dir / "rounds"))
    return 0


def _anchors(args: argparse.Namespace) -> int:
    """`analysis anchors`: a run's ratios across runtimes, plain and anchored inside their processes."""
    print(write_anchors(load_run(args.run_dir), args.out or args.run_dir / "anchors"))
    return 0


def _store(args: argparse.Namespace) -> int:
    """`analysis store`: run folders imported into the results store, a line per run and then the store's path; exit 1
    when a folder was refused (the others are in)."""
    if args.rebuild and args.run_dirs:
        raise HarnessError(
            "--rebuild makes the store from every run folder under the results folder, not from the ones named",
            "give either run folders (to import them) or --rebuild (with --results-dir for another results folder)",
        )
    if args.rebuild:
        results = rebuild_store(args.store, args.results_dir)
    else:
        results = import_runs(args.store, args.run_dirs or run_folders(args.results_dir))
    for result in results:
        print(result.line())
    print(args.store)
    return 1 if any(result.outcome == Outcome.REFUSED for result in results) else 0


def _site(args: argparse.Namespace) -> int:
    """`analysis site`: the history site from the store, its index page and counts on one line."""
    print(build_site(args.store, args.out, args.results_dir).line())
    return 0


def _change_study(args: argparse.Namespace) -> int:
    """`analysis change-study`: the change-point search's detection rate and false alarms, a table."""
    if not 1 <= args.histories <= 100_000:
        raise HarnessError(f"--histories {args.histories} is out of range", "give 1 to 100000 (the default is 400)")
    print(study_table(default_study(args.histories, args.seed)))
    return 0


def _sample(args: argparse.Namespace) -> int:
    """`analysis sample`: the run's report, made small, copied to the committed sample."""
    print(write_sample(args.run_dir, args.out))
    return 0


def _chart(args: argparse.Namespace) -> int:
    """`analysis chart`: one chart of the run re-rendered for a post, each file written on a line."""
    for written in write_chart(args.run_dir, args.name, args.out, args.theme or "light").values():
        print(written)
    return 0


def _replay_stopping(args: argparse.Namespace) -> int:
    """`analysis replay-stopping`: the profile's stopping rules replayed on a long run within an hour run's time."""
    profile = find_profile(load_profiles(), args.profile)
    print(
        write_replay(
            load_run(args.long_run),
            load_run(args.hour_run),
            profile.stopping,
            profile.stopping.min_rounds,
            args.out or args.long_run / "replay",
        )
    )
    return 0


#: Each subcommand's handler (args -> exit code).
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "report": _report,
    "compare": _compare,
    "designs": _designs,
    "rounds": _rounds,
    "anchors": _anchors,
    "store": _store,
    "site": _site,
    "change-study": _change_study,
    "sample": _sample,
    "screenshot": lambda args: _screenshot(args.run_dir),
    "chart": _chart,
    "replay-stopping": _replay_stopping,
}


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        return COMMANDS[args.command](args)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        print(f"hint: {e.hint}", file=sys.stderr)
        return 2
