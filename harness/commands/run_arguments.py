"""The options of `harness run` beyond the selection it shares with `plan` (harness/commands/selection.py): the run
folder and its CPUs, where the lab processes run (backend, platform, containers, engine, bases) and how the session
goes (budget, calibration, hosts, waiting, failed cells). They are separate from harness/cli.py, which builds every
subcommand's parser: run's options are the longest part of it, and they sit here beside the selection.
"""

from __future__ import annotations

import argparse
import pathlib

from harness.backends import BACKEND_CHOICES
from harness.config.arguments import duration, minutes, run_id
from harness.containers.own_engine import OWN_ENGINE_CHOICES
from harness.model.defaults import RESULTS_DIR


def add_run_arguments(run: argparse.ArgumentParser) -> None:
    """`harness run`'s own options, in the order `--help` lists them: the run folder and its CPUs, then where the lab
    processes run, then how the session goes."""
    run.add_argument("--run-id", type=run_id, help="name of the run folder (default: UTC timestamp)")
    run.add_argument(
        "--resume", action="store_true", help="continue a run (the latest, or --run-id): finished cells are skipped"
    )
    run.add_argument("--results-dir", type=pathlib.Path, default=RESULTS_DIR, help="where run folders go")
    run.add_argument(
        "--cpuset",
        help="CPUs for the lab processes, taskset syntax (default: the highest isolated CPU, else the highest CPU)",
    )
    run.add_argument(
        "--harness-cpuset",
        help="CPUs for the harness itself (default: the lowest CPU neither used by the lab nor isolated)",
    )
    run.add_argument(
        "--warm-cpuset",
        help="design paired-pipelined: the CPUs each process is started, verified and warmed on before it is handed "
        "to the lab's (default: the harness's; 'none': there is none, and a profile's pipelined design runs as paired)",
    )
    run.add_argument("--no-build", action="store_true", help="use the labs as already built")
    _add_placement_arguments(run)
    _add_session_arguments(run)


def _add_placement_arguments(run: argparse.ArgumentParser) -> None:
    """Where the lab processes run: the backend, the platform, one container per process, the engine and the bases."""
    run.add_argument(
        "--backend",
        default="auto",
        choices=BACKEND_CHOICES,
        help="where the lab processes run: host (this machine's processes, pinned with taskset), docker (containers) "
        "or auto (docker when an engine answers, host otherwise)",
    )
    run.add_argument(
        "--platform",
        help="docker backend: run images built for this platform (e.g. linux/arm64); another architecture than "
        "this host's runs under emulation and its rows are functional checks only (marked emulated)",
    )
    run.add_argument(
        "--container-per-process",
        action="store_true",
        help="docker backend: start a fresh container for every lab process instead of `docker exec` into one "
        "long-lived container per image and CPU set",
    )
    run.add_argument(
        "--own-engine",
        default="auto",
        choices=OWN_ENGINE_CHOICES,
        help="with --backend auto and no Docker engine answering: start the lab's own for the run "
        "and stop it after (auto, as root), or never",
    )
    run.add_argument(
        "--bases",
        default="auto",
        help="base images of the lab images: auto (local ones, made here with mmdebstrap "
        "when missing), local or upstream",
    )


def _add_session_arguments(run: argparse.ArgumentParser) -> None:
    """How the session goes: its budget, the calibration, the hosts, waiting for a lab CPU and failed cells."""
    run.add_argument(
        "--budget",
        type=minutes,
        metavar="MINUTES",
        help="time budget of this session in minutes instead of the profile's (0: none); "
        "extra rounds stop when it runs short",
    )
    run.add_argument(
        "--budget-of",
        type=pathlib.Path,
        metavar="RUN",
        help="time budget equal to that run's machine time (its processes' wall time, a duet's counted once): two "
        "designs compared at equal machine time (`just method-control`)",
    )
    run.add_argument(
        "--until-decided",
        action="store_true",
        help="instead of the budget: keep measuring, the claims forecast decided soonest first, until every claim more "
        "rounds can decide is decided or --max is up (resumable: `--resume --until-decided`)",
    )
    run.add_argument(
        "--max",
        type=duration,
        metavar="DURATION",
        help="with --until-decided: stop after this long at most (90, 45m, 1.5h, 2h30m; default 8h)",
    )
    run.add_argument("--no-calibration", action="store_true", help="skip the calibration workload between ISA levels")
    run.add_argument(
        "--host",
        action="append",
        help="measure on these hosts of hosts.toml (repeatable; default: this machine): one run folder, a run per "
        "host inside it, in parallel (docs/hosts.md)",
    )
    run.add_argument("--host-id", help=argparse.SUPPRESS)  # set by a run over several hosts for each host's process
    run.add_argument(
        "--wait",
        action="store_true",
        help="when another measurement holds a lab CPU, queue behind it instead of stopping "
        "(one measurement per CPU: harness/host/cpu_lock.py)",
    )
    run.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when any cell failed (by default a failed cell is a result: a 'failed: reason' row)",
    )
