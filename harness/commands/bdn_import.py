"""`harness import`: BenchmarkDotNet report tables into a new experiment file."""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys

from harness.config.isa import load_isa_table
from harness.config.labs import find_lab, load_labs
from harness.model.errors import HarnessError


def import_command(args: argparse.Namespace) -> int:
    from harness.tools.bdn_import import default_output, import_reports, next_experiment_id

    exp_id = args.id or next_experiment_id()
    lab, isa = find_lab(load_labs(), args.lab), load_isa_table()
    if args.out == "-":
        result = import_reports(args.reports, exp_id, lab, isa)
        print(result.text, end="")
    else:
        out = pathlib.Path(args.out) if args.out else default_output(exp_id, args.reports[0])
        kept = out.parent / "reports" / exp_id  # the source reports, committed beside the experiment file
        for taken in (out, kept):
            if taken.exists():
                raise HarnessError(f"{taken} exists", "give another --out (or --id), or delete it first")
        result = import_reports(args.reports, exp_id, lab, isa, kept_in=f"reports/{exp_id}/ beside this file")
        kept.mkdir(parents=True)
        for number, report in enumerate(args.reports, 1):  # numbered: reports of one class share a file name
            shutil.copyfile(report, kept / f"{number:02d}-{report.name}")
        out.write_text(result.text)
        print(out)
    print(
        f"imported {result.claims} claim(s) from {result.tables} table(s); {result.todos} field(s) say TODO (`just "
        "check` lists them)",
        file=sys.stderr,
    )
    for unread in result.unread:
        print(f"not read: {unread.source} line {unread.line}: {unread.reason}", file=sys.stderr)
    for scenario in result.no_baseline:
        print(
            f"no baseline in the report for '{scenario}': the first row is used (a comment in the file says so)",
            file=sys.stderr,
        )
    return 0
