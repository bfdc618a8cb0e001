"""Command line: `python3 -m analysis report RUN_DIR` re-renders a run's report without measuring."""

from __future__ import annotations

import argparse
import pathlib
import sys

from analysis.writer import write_report
from harness.errors import HarnessError


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    parser = argparse.ArgumentParser(prog="analysis", description="render a run's report")
    sub = parser.add_subparsers(dest="command", required=True)
    report = sub.add_parser("report", help="write RUN_DIR/report/ from RUN_DIR/results.jsonl")
    report.add_argument("run_dir", type=pathlib.Path, help="results/<run-id> or results/latest")
    args = parser.parse_args(argv)
    try:
        path = write_report(args.run_dir)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        print(f"hint: {e.hint}", file=sys.stderr)
        return 2
    print(path)
    return 0
