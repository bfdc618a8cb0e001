"""Command line: `python3 -m harness run|plan|check|import|doctor|list|env|check-datasets|canonical-digests|…`.

HarnessError becomes one `error:` and one `hint:` line and exit code 2; anything else is a bug
and keeps its traceback.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import signal
import sys
import threading
from collections.abc import Callable

from harness.backends import BACKEND_CHOICES
from harness.commands.bdn_import import import_command
from harness.commands.bisect import add_bisect_arguments, bisect_command
from harness.commands.checks import (
    canonical_digests_command,
    check_command,
    check_datasets_command,
    doctor_command,
    regenerate_datasets_command,
)
from harness.commands.conformance import conformance_command
from harness.commands.hosts import hosts_command
from harness.commands.lab_checks import lab_checks_command
from harness.commands.labs import (
    build_command,
    compose_command,
    images_command,
    list_command,
    local_bases_command,
    models_command,
    pin_bases_command,
)
from harness.commands.licences import licences_command
from harness.commands.overlap_probe import add_overlap_probe_arguments, overlap_probe_command
from harness.commands.payload import add_payload_arguments, infer_model_command, payload_command
from harness.commands.pipeline_probe import add_pipeline_probe_arguments, pipeline_probe_command
from harness.commands.run import plan_command, run_command
from harness.commands.run_arguments import add_run_arguments
from harness.commands.selection import add_selection
from harness.config.arguments import experiment_id, names
from harness.config.lab.lab_checks import KINDS
from harness.host.environment import collect_host_environment
from harness.model.defaults import RESULTS_DIR
from harness.model.errors import HarnessError


def _parser() -> argparse.ArgumentParser:
    """The parser of `python3 -m harness` and its subcommands, in the order `--help` lists them."""
    parser = argparse.ArgumentParser(prog="harness", description="JSON serializer lab harness")
    sub = parser.add_subparsers(dest="command", required=True)
    _add_run_commands(sub)
    _add_build_commands(sub)
    _add_lab_commands(sub)
    _add_data_commands(sub)
    return parser


def _add_run_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The subcommands that measure: run, plan (what a run would measure), bisect (a version that moved a ratio) and
    payload (the user's document, for `just payload`)."""
    run = sub.add_parser("run", help="run a profile's cells and store normalized results")
    add_selection(run)
    add_run_arguments(run)
    plan = sub.add_parser(
        "plan", help="what a run would measure: cells per experiment and ISA level, and its estimated duration"
    )
    add_selection(plan)
    plan.add_argument(
        "--results-dir",
        type=pathlib.Path,
        default=RESULTS_DIR,
        help="where earlier runs are: the estimate learns each cell's cost from the newest run of the same design "
        "and job",
    )
    bisecting = sub.add_parser(
        "bisect", help="the served versions between the lab's and a write-up's, for each figure a version moved"
    )
    add_bisect_arguments(bisecting)
    payload = sub.add_parser(
        "payload", help="your JSON document as a dataset (datasets/local/) and an experiment; prints its folder"
    )
    add_payload_arguments(payload)
    infer = sub.add_parser("infer-model", help="the model file inferred from a JSON document, on stdout")
    infer.add_argument("file", type=pathlib.Path, help="a JSON document (an object or an array, UTF-8)")
    overlap = sub.add_parser(
        "overlap-probe", help="stored paired groups timed beside warm-ups on the other CPU, and beside an idle one"
    )
    add_overlap_probe_arguments(overlap)
    pipeline = sub.add_parser(
        "pipeline-probe",
        help="stored paired groups, each process warmed on the other CPU and handed over, against paired",
    )
    add_pipeline_probe_arguments(pipeline)


def _add_build_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """What a run needs first: doctor (the prerequisites), build (the labs), images and local-bases."""
    checkup = sub.add_parser(
        "doctor",
        help="every tool and library the lab needs (prerequisites.toml), grouped by what needs it: found, with "
        "its version, or missing, with the command that installs it; exit 1 when a required one is missing",
    )
    checkup.add_argument(
        "--for",
        dest="needs",
        action="append",
        metavar="NEED",
        help="only what these need, all of it required (e.g. tests, host-cold, lab:dotnet; "
        "names: prerequisites.toml)",
    )
    checkup.add_argument(
        "--all", action="store_true", help="require the extras too (Chromium, QEMU), as CI installs them"
    )
    checkup.add_argument("--brief", action="store_true", help="no version commands; list only what is missing")
    build = sub.add_parser("build", help="build every lab for every runtime it offers (a current build is reused)")
    build.add_argument("--lab", action="append", type=names, help="only these labs")
    build.add_argument("--runtime", action="append", type=names, help="only these runtimes")
    images = sub.add_parser(
        "images", help="build the lab images (one per lab × runtime) with Buildx bake, or docker build without Buildx"
    )
    images.add_argument("--lab", action="append", type=names, help="only these labs")
    images.add_argument("--runtime", action="append", type=names, help="only these runtimes")
    images.add_argument("--bases", default="auto", help="auto (local bases, made here when missing), local or upstream")
    images.add_argument("--platform", help="build for this platform (e.g. linux/arm64) instead of the engine's")
    bases = sub.add_parser(
        "local-bases",
        help="build the base images of lab/*/local-bases.toml and containers/ with mmdebstrap (no registry)",
    )
    bases.add_argument("--base", action="append", help="only these bases (default: those for this host's architecture)")
    bases.add_argument("--rebuild", action="store_true", help="rebuild bases that exist")


def _add_lab_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The labs and where they run: conformance, pin-bases, hosts, compose, licences, list and env."""
    conformance = sub.add_parser(
        "conformance",
        help="every parser of the run's labs over JSONTestSuite (datasets/conformance); "
        "writes <run>/conformance.jsonl for its report",
    )
    conformance.add_argument(
        "run_dir", nargs="?", default=str(RESULTS_DIR / "latest"), help="the run folder (default: results/latest)"
    )
    conformance.add_argument(
        "--lab", action="append", type=names, help="only these labs (default: the labs of the run)"
    )
    conformance.add_argument(
        "--backend", default="auto", choices=BACKEND_CHOICES, help=f"one of: {', '.join(BACKEND_CHOICES)}"
    )
    conformance.add_argument("--bases", default="auto", help="docker backend: base images (auto, local, upstream)")
    conformance.add_argument(
        "--wait",
        action="store_true",
        help="queue behind a measurement that holds the run's lab CPU instead of stopping",
    )
    pin = sub.add_parser("pin-bases", help="pin the Dockerfiles' upstream base images by digest (needs their registry)")
    pin.add_argument(
        "--check", action="store_true", help="only list the base references without a digest (exit 1 if any)"
    )
    hosts = sub.add_parser(
        "hosts", help="the hosts of hosts.toml probed through their Docker engines: CPU, cores, arch, ISA levels"
    )
    hosts.add_argument("--host", action="append", help="only these hosts (default: every host of hosts.toml)")
    hosts.add_argument(
        "--transfer", action="append", metavar="IMAGE", help="first move this image from this machine's engine there"
    )
    hosts.add_argument("--json", action="store_true", help="print the facts as JSON")
    sub.add_parser("compose", help="rewrite compose.yaml from the labs' lab.toml")
    sub.add_parser("models", help="write each lab's code for the declared models (datasets/models/*.toml) now")
    checks = sub.add_parser("lab-checks", help="every lab's own tests or lint (lab.toml [checks]), from its folder")
    checks.add_argument("kind", choices=KINDS)
    checks.add_argument("--lab", action="append", type=names, help="only these labs")
    licences = sub.add_parser(
        "licences",
        help="write docs/licences.csv and docs/licences.md: every package of the labs' lock files, bases and "
        "Dockerfiles with its licence (harness/licences/licences.toml: the allow-list, the vendor-terms packages)",
    )
    licences.add_argument(
        "--check",
        action="store_true",
        help="write nothing; exit 1 when the committed table differs from the lock files or a licence is outside "
        "the allow-list",
    )
    sub.add_parser("list", help="experiments, profiles, ISA levels, labs and their runtimes")
    sub.add_parser("env", help="print this host's environment as JSON")


def _add_data_commands(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The data files: check-datasets, canonical-digests and regenerate-datasets; check and import (experiments)."""
    sub.add_parser("check-datasets", help="verify every dataset against datasets/manifest.json")
    sub.add_parser(
        "canonical-digests",
        help="write each single-document dataset's canonical digest (harness/model/canonical.py) "
        "into datasets/manifest.json",
    )
    sub.add_parser(
        "regenerate-datasets", help="rewrite the generated datasets with their lab generators and check them"
    )
    check = sub.add_parser(
        "check", help="every experiment, profile and dataset checked before anything is built: schema, names, plans"
    )
    check.add_argument(
        "--experiments-dir",
        type=pathlib.Path,
        help="check only the experiment files of this folder (their schema, names and plans alone), not the profiles",
    )
    importer = sub.add_parser(
        "import", help="BenchmarkDotNet *-report-github.md files into a new experiment file, one claim per row"
    )
    importer.add_argument("reports", nargs="+", type=pathlib.Path, help="the reports of one write-up")
    importer.add_argument(
        "--out", help="the experiment file to write (default: experiments/NNN-<report name>.toml; '-': standard output)"
    )
    importer.add_argument("--id", type=experiment_id, help="the experiment id (default: the next free one)")
    importer.add_argument(
        "--lab", default="dotnet", help="the lab whose variants re-measure the rows (default: dotnet)"
    )


def env_command(args: argparse.Namespace) -> int:
    """`harness env`: this host's environment record, as a run would capture it."""
    print(json.dumps(collect_host_environment(), indent=2))
    return 0


#: Each subcommand's handler (args -> exit code); the modules under harness/commands/ hold them.
COMMANDS: dict[str, Callable[[argparse.Namespace], int]] = {
    "run": run_command,
    "plan": plan_command,
    "bisect": bisect_command,
    "payload": payload_command,
    "infer-model": infer_model_command,
    "overlap-probe": overlap_probe_command,
    "pipeline-probe": pipeline_probe_command,
    "build": build_command,
    "images": images_command,
    "local-bases": local_bases_command,
    "pin-bases": pin_bases_command,
    "compose": lambda args: compose_command(),
    "models": models_command,
    "lab-checks": lab_checks_command,
    "licences": licences_command,
    "hosts": hosts_command,
    "list": lambda args: list_command(),
    "conformance": conformance_command,
    "doctor": doctor_command,
    "check": check_command,
    "import": import_command,
    "env": env_command,
    "regenerate-datasets": lambda args: regenerate_datasets_command(),
    "canonical-digests": lambda args: canonical_digests_command(),
    "check-datasets": lambda args: check_datasets_command(),
}


class Terminated(KeyboardInterrupt):
    """SIGTERM (a CI time-out, a service manager, `kill`), handled exactly as Ctrl-C is: every `finally` runs, so the
    lab's own Docker engine is stopped, the process being measured is killed and the rows written so far are kept."""


def _terminate(signum: int, frame: object) -> None:
    raise Terminated()


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code (130 after Ctrl-C, 143 after SIGTERM)."""
    args = _parser().parse_args(argv)
    main_thread = threading.current_thread() is threading.main_thread()
    previous = signal.signal(signal.SIGTERM, _terminate) if main_thread else None
    try:
        return COMMANDS[args.command or "check-datasets"](args)
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        print(f"hint: {e.hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as e:
        how = "terminated" if isinstance(e, Terminated) else "interrupted"
        print(f"{how}: {interrupted_hint(args.command, sys.argv[1:] if argv is None else argv)}", file=sys.stderr)
        return 143 if isinstance(e, Terminated) else 130
    finally:
        if main_thread:
            signal.signal(signal.SIGTERM, previous)


def interrupted_hint(command: str, argv: list[str]) -> str:
    """What to do after Ctrl-C: for a run, the command that resumes it (every row written so far is kept)."""
    if command != "run":
        return "nothing was measured; run the command again"
    again = [a for a in argv if a != "--resume"]
    return (
        "every finished process's rows are kept; the one that was running is measured again by "
        f"`python3 -m harness {' '.join([*again, '--resume'])}` (or `just resume PROFILE` with the run's options)"
    )
