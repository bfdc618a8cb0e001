"""`harness import`: BenchmarkDotNet report tables into a new experiment file."""

from __future__ import annotations

import argparse
import pathlib
import shutil
import sys

from harness.config.isa import load_isa_table
from harness.config.lab.labs import find_lab, load_labs
from harness.model.defaults import EXPERIMENTS_DIR
from harness.model.errors import HarnessError


def import_command(args: argparse.Namespace) -> int:
    from harness.bdn.importer import check_id_free, default_output, import_reports, kept_names, next_experiment_id

    out = pathlib.Path(args.out) if args.out not in (None, "-") else None
    folders = list(dict.fromkeys([EXPERIMENTS_DIR, *([out.parent] if out else [])]))
    folders = [f for f in folders if f.is_dir()]
    exp_id = args.id or next_experiment_id(*folders)
    lab, isa = find_lab(load_labs(), args.lab), load_isa_table()
    if args.out == "-":
        check_id_free(exp_id, *folders)
        result = import_reports(args.reports, exp_id, lab, isa)
        print(result.text, end="")
    else:
        out = out or default_output(exp_id, args.reports[0])
        kept = out.parent / "reports" / exp_id  # the source reports, committed beside the experiment file
        for taken in (out, kept):
            if taken.exists():
                raise HarnessError(f"{taken} exists", "give another --out (or --id), or delete it first")
        check_id_free(exp_id, *folders)  # before anything is written: an id two files share breaks every load
        result = import_reports(args.reports, exp_id, lab, isa, kept_in=f"reports/{exp_id}")
        kept.mkdir(parents=True)
        for report, name in zip(args.reports, kept_names(args.reports)):
            shutil.copyfile(report, kept / name)
        out.write_text(result.text)
        print(out)
    print(
        f"imported {result.claims} claim(s) from {result.tables} table(s); {result.todos} field(s) say TODO (`just "
        "check` lists them)",
        file=sys.stderr,
    )
    for unread in result.unread:
        print(f"not read: {unread.source} line {unread.line}: {unread.reason}", file=sys.stderr)
    for warning in result.warnings:
        print(f"warning: {warning}", file=sys.stderr)
    return 0
