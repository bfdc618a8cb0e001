"""`harness run` and `harness plan`: measure a profile (the lab's own engine started for it when needed), or say
what it would measure."""

from __future__ import annotations

import argparse
import sys

from harness.model.records import RowStatus
from harness.backends import select_backend
from harness.containers.own_engine import engine_for_run
from harness.config.isa import load_isa_table
from harness.host.preflight import check_run
from harness.session.runner import execute_run
from harness.planning.run_plan import plan_summary, resolve_plan
from harness.commands.selection import run_options


def run_command(args: argparse.Namespace) -> int:
    options = run_options(
        args,
        run_id=args.run_id,
        resume=args.resume,
        results_dir=args.results_dir,
        lab_cpuset=args.cpuset,
        harness_cpuset=args.harness_cpuset,
        build=not args.no_build,
        calibrate=not args.no_calibration,
        budget_min=args.budget,
        wait=args.wait,
    )
    plan = resolve_plan(options)  # a bad selection is reported before anything else happens
    without_image = tuple(sorted({build.name for build in plan.labs.values() if build.container is None}))
    with engine_for_run(
        args.backend if not without_image else "native",
        args.own_engine,
        report=lambda line: print(line, file=sys.stderr),
    ):
        backend, notice = select_backend(
            args.backend,
            load_isa_table().all_switch_names(),
            args.bases,
            args.platform,
            without_image,
            args.container_per_process,
        )
        print(notice, file=sys.stderr)
        for note in check_run(
            plan, backend.name
        ):  # a missing tool stops the run here, in seconds, before any build or cell
            print(f"note: {note}", file=sys.stderr)
        summary = execute_run(options, backend)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(summary.counts.items()))
    print(f"run finished: {counts}; results in {summary.directory}", file=sys.stderr)
    print(summary.directory)
    return 1 if args.strict and summary.counts.get(RowStatus.FAILED) else 0


def plan_command(args: argparse.Namespace) -> int:
    plan = resolve_plan(run_options(args, results_dir=args.results_dir))
    print(plan_summary(plan))
    return 0
