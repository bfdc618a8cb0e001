"""What a run measures, from the command line: the selection options shared by run and plan."""

from __future__ import annotations

import argparse
import pathlib

from harness.config.arguments import names
from harness.model.defaults import DEFAULT_PROFILE, EXPERIMENTS_DIR
from harness.planning.designs import DESIGNS
from harness.planning.run_plan import RunOptions


def split(values: list[str] | None) -> tuple[str, ...] | None:
    """Accepts both `--isa a --isa b` and `--isa a,b`."""
    if not values:
        return None
    return tuple(part for value in values for part in value.split(",") if part)


def add_selection(parser: argparse.ArgumentParser) -> None:
    """The options that choose what a run measures (shared by run and plan)."""
    parser.add_argument("--profile", default=DEFAULT_PROFILE, help="preset from experiments/profiles.toml")
    parser.add_argument("--experiment", action="append", type=names, help="experiment id(s) instead of the profile's")
    parser.add_argument(
        "--isa",
        action="append",
        type=names,
        help="ISA level(s) instead of the profile's ('all', or 'claims': the published CPUs' levels)",
    )
    parser.add_argument(
        "--runtime",
        action="append",
        type=names,
        help="lab runtime(s) instead of the profile's (e.g. 8.0.0; 'all'; 'claims': the stand-ins "
        "for the published runtimes; 'sweep': every runtime for the experiments' runtime_sweep benchmarks)",
    )
    parser.add_argument(
        "--benchmark", action="append", type=names, help="only these benchmark ids (their baselines are added)"
    )
    parser.add_argument(
        "--variant",
        action="append",
        type=names,
        help="only benchmarks of these lab variants (their baselines are added)",
    )
    parser.add_argument("--design", help=f"replication design instead of the profile's: {', '.join(DESIGNS)}")
    parser.add_argument(
        "--experiments-dir",
        type=pathlib.Path,
        default=EXPERIMENTS_DIR,
        help="read the experiment files from this folder instead of experiments/ (a draft, or a variant of one)",
    )
    parser.add_argument(
        "--job",
        action="append",
        metavar="KEY=VALUE",
        help="a job setting instead of the profile's, e.g. --job burst_ms=50 (keys: experiments/profiles.toml)",
    )


def run_options(args: argparse.Namespace, **extra) -> RunOptions:
    return RunOptions(
        profile=args.profile,
        experiments=split(args.experiment),
        isa_levels=split(args.isa),
        runtimes=split(args.runtime),
        benchmarks=split(args.benchmark),
        variants=split(args.variant),
        design=args.design,
        job_overrides=tuple(args.job or ()),
        experiments_dir=getattr(args, "experiments_dir", EXPERIMENTS_DIR),
        **extra,
    )
