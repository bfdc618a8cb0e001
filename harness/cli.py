"""Command line: `python3 -m harness run|plan|check|import|doctor|list|env|check-datasets|canonical-digests|…`.

HarnessError becomes one `error:` and one `hint:` line and exit code 2; anything else is a bug
and keeps its traceback.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
import time

from harness.backends import BACKEND_CHOICES, select_backend
from harness.containers.own_engine import OWN_ENGINE_CHOICES, engine_for_run
from harness.config.datasets import load_manifest, regenerate, write_canonical_digests
from harness.planning.designs import DESIGNS
from harness.config.defaults import DATASETS_DIR, DEFAULT_PROFILE, RESULTS_DIR, REPO_ROOT
from harness.model.run_folder import ENVIRONMENT_FILE
from harness.host.environment import collect_host_environment
from harness.model.errors import HarnessError
from harness.config.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.session.build import build_lab
from harness.config.labs import find_lab, load_labs
from harness.host.preflight import check_run, doctor
from harness.session.probe import host_arch
from harness.config.profiles import load_profiles
from harness.session.runner import RunOptions, execute_run, plan_summary, resolve_plan


def _split(values: list[str] | None) -> tuple[str, ...] | None:
    """Accepts both `--isa a --isa b` and `--isa a,b`."""
    if not values:
        return None
    return tuple(part for value in values for part in value.split(",") if part)


def _add_selection(parser: argparse.ArgumentParser) -> None:
    """The options that choose what a run measures (shared by run and plan)."""
    parser.add_argument("--profile", default=DEFAULT_PROFILE, help="preset from experiments/profiles.toml")
    parser.add_argument("--experiment", action="append", help="experiment id(s) instead of the profile's")
    parser.add_argument(
        "--isa",
        action="append",
        help="ISA level(s) instead of the profile's ('all', or 'claims': the published CPUs' levels)",
    )
    parser.add_argument(
        "--runtime",
        action="append",
        help="lab runtime(s) instead of the profile's (e.g. 8.0.0; 'all'; 'claims': the stand-ins "
        "for the published runtimes; 'sweep': every runtime for the experiments' runtime_sweep benchmarks)",
    )
    parser.add_argument("--benchmark", action="append", help="only these benchmark ids (their baselines are added)")
    parser.add_argument(
        "--variant", action="append", help="only benchmarks of these lab variants (their baselines are added)"
    )
    parser.add_argument("--design", help=f"replication design instead of the profile's: {', '.join(DESIGNS)}")
    parser.add_argument(
        "--job",
        action="append",
        metavar="KEY=VALUE",
        help="a job setting instead of the profile's, e.g. --job burst_ms=50 (keys: experiments/profiles.toml)",
    )


def _options(args: argparse.Namespace, **extra) -> RunOptions:
    return RunOptions(
        profile=args.profile,
        experiments=_split(args.experiment),
        isa_levels=_split(args.isa),
        runtimes=_split(args.runtime),
        benchmarks=_split(args.benchmark),
        variants=_split(args.variant),
        design=args.design,
        job_overrides=tuple(args.job or ()),
        **extra,
    )


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="harness", description="JSON serializer lab harness")
    sub = parser.add_subparsers(dest="command", required=True)
    run = sub.add_parser("run", help="run a profile's cells and store normalized results")
    _add_selection(run)
    run.add_argument("--run-id", help="name of the run folder (default: UTC timestamp)")
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
    run.add_argument("--no-build", action="store_true", help="use the labs as already built")
    run.add_argument(
        "--backend",
        default="auto",
        help=f"one of: {', '.join(BACKEND_CHOICES)} (auto: docker when an engine answers, native otherwise)",
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
    run.add_argument(
        "--budget",
        type=float,
        metavar="MINUTES",
        help="time budget of this session in minutes instead of the profile's (0: none); "
        "extra rounds stop when it runs short",
    )
    run.add_argument("--no-calibration", action="store_true", help="skip the calibration workload between ISA levels")
    run.add_argument(
        "--strict",
        action="store_true",
        help="exit 1 when any cell failed (by default a failed cell is a result: a 'failed: reason' row)",
    )
    _add_selection(
        sub.add_parser(
            "plan", help="what a run would measure: cells per experiment and ISA level, and its estimated duration"
        )
    )
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
        help="only what these need, all of it required (e.g. tests, native-cold, lab:dotnet; "
        "names: prerequisites.toml)",
    )
    checkup.add_argument(
        "--all", action="store_true", help="require the extras too (Chromium, QEMU), as CI installs them"
    )
    checkup.add_argument("--brief", action="store_true", help="no version commands; list only what is missing")
    build = sub.add_parser("build", help="build every lab for every runtime it offers (a current build is reused)")
    build.add_argument("--lab", action="append", help="only these labs")
    build.add_argument("--runtime", action="append", help="only these runtimes")
    images = sub.add_parser(
        "images", help="build the lab images (one per lab × runtime) with Buildx bake, or docker build without Buildx"
    )
    images.add_argument("--lab", action="append", help="only these labs")
    images.add_argument("--runtime", action="append", help="only these runtimes")
    images.add_argument("--bases", default="auto", help="auto (local bases, made here when missing), local or upstream")
    images.add_argument("--platform", help="build for this platform (e.g. linux/arm64) instead of the engine's")
    bases = sub.add_parser(
        "local-bases", help="build the base images of containers/local-bases.toml with mmdebstrap (no registry needed)"
    )
    bases.add_argument("--base", action="append", help="only these bases (default: those for this host's architecture)")
    bases.add_argument("--rebuild", action="store_true", help="rebuild bases that exist")
    conformance = sub.add_parser(
        "conformance",
        help="every parser of the run's labs over JSONTestSuite (datasets/conformance); "
        "writes <run>/conformance.jsonl for its report",
    )
    conformance.add_argument(
        "run_dir", nargs="?", default=str(RESULTS_DIR / "latest"), help="the run folder (default: results/latest)"
    )
    conformance.add_argument("--lab", action="append", help="only these labs (default: the labs of the run)")
    conformance.add_argument("--backend", default="auto", help=f"one of: {', '.join(BACKEND_CHOICES)}")
    conformance.add_argument("--bases", default="auto", help="docker backend: base images (auto, local, upstream)")
    pin = sub.add_parser("pin-bases", help="pin the Dockerfiles' upstream base images by digest (needs their registry)")
    pin.add_argument(
        "--check", action="store_true", help="only list the base references without a digest (exit 1 if any)"
    )
    sub.add_parser("compose", help="rewrite compose.yaml from the labs' lab.toml")
    sub.add_parser("list", help="experiments, profiles, ISA levels, labs and their runtimes")
    sub.add_parser("env", help="print this host's environment as JSON")
    sub.add_parser("check-datasets", help="verify every dataset against datasets/manifest.json")
    sub.add_parser(
        "canonical-digests",
        help="write each single-document dataset's canonical digest (harness/tools/canonical.py) "
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
    importer.add_argument("--id", help="the experiment id (default: the next free one)")
    importer.add_argument(
        "--lab", default="dotnet", help="the lab whose variants re-measure the rows (default: dotnet)"
    )
    return parser


def _run(args: argparse.Namespace) -> int:
    options = _options(
        args,
        run_id=args.run_id,
        resume=args.resume,
        results_dir=args.results_dir,
        lab_cpuset=args.cpuset,
        harness_cpuset=args.harness_cpuset,
        build=not args.no_build,
        calibrate=not args.no_calibration,
        budget_min=args.budget,
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
    return 1 if args.strict and summary.counts.get("failed") else 0


def _list() -> int:
    print("experiments:")
    for exp in load_experiments().values():
        print(f"  {exp.id}  {exp.title} ({len(exp.benchmarks)} benchmarks, {len(exp.claims)} claims)")
    print("profiles:")
    for profile in load_profiles().values():
        print(f"  {profile.name:8} {profile.description}")
    print(f"ISA levels ({host_arch()}):")
    for level in load_isa_table().levels_for(host_arch()).values():
        print(f"  {level.name:10} {level.description}")
    print("labs:")
    for lab in load_labs().values():
        print(f"  {lab.name:8} {lab.language} ({lab.directory})")
        for name, runtime in lab.runtimes.items():
            default = " (default)" if name == lab.default_runtime else ""
            print(f"    runtime {name:10} {runtime.note}{default}")
    return 0


def _build(args: argparse.Namespace) -> int:
    labs = load_labs()
    names = _split(args.lab) or list(labs)
    log_dir = RESULTS_DIR / "build-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        lab = find_lab(labs, name)
        lab.check_requirements()
        for runtime in _split(args.runtime) or lab.runtime_names:
            build = lab.for_runtime(runtime)
            built = build_lab(build, log_dir / f"build-{build.target}.log")
            print(f"{build.target}: {'built' if built else 'current, reused'}", file=sys.stderr)
    return 0


def _images(args: argparse.Namespace) -> int:
    from harness.containers.bases import DOCKER_ARCH_HOST
    from harness.containers.images import build_images, inspect_image
    from harness.backends.docker import DockerBackend

    backend = DockerBackend(set(), args.bases, platform=args.platform)
    labs = load_labs()
    names = _split(args.lab) or [n for n, lab in labs.items() if lab.container]
    runtimes = _split(args.runtime)
    platform = args.platform or f"linux/{DOCKER_ARCH_HOST}"
    # Without --lab, a lab whose Dockerfile cannot build this platform is left out, and a runtime name applies to the
    # labs that have it.
    builds = []
    for name in names:
        lab = find_lab(labs, name)
        if not args.lab and platform not in lab.container.platforms:
            continue
        wanted = runtimes or lab.runtime_names
        builds += [lab.for_runtime(runtime) for runtime in wanted if args.lab or runtime in lab.runtime_names]
    if not builds:
        raise HarnessError(
            f"no lab image matches --runtime {args.runtime} for {platform}",
            "run `python3 -m harness list` for the labs and their runtimes",
        )
    images = [backend.image(build) for build in builds]
    choices = {backend.bases_for(build) for build in builds}
    if len(choices) != 1:
        raise HarnessError("the labs would build on different bases", "pick one with --bases local or --bases upstream")
    bases = choices.pop()
    log_dir = RESULTS_DIR / "build-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    if bases == "local":
        from harness.containers.bases import ensure_local_bases

        ensure_local_bases(
            sorted({b for image in images for b in image.local_bases().values()}), log_dir / "local-bases.log"
        )
    started = time.monotonic()
    how = build_images(images, backend.engine, bases, log_dir, log_dir / "images.log")
    print(
        f"built {len(images)} image(s) with {how}, {bases} bases, in {time.monotonic() - started:.0f} s (log: "
        f"{log_dir / 'images.log'})",
        file=sys.stderr,
    )
    for image in images:
        info = inspect_image(image.tag)
        print(
            f"  {image.tag:28} {info.image_id[:19] if info else 'missing'}  "
            f"{info.size_bytes / 2**20 if info else 0:7.1f} MiB  {info.architecture if info else ''}"
        )
    return 0


def _conformance(args: argparse.Namespace) -> int:
    from harness.session.conformance import run_conformance

    run_dir = pathlib.Path(args.run_dir).resolve()
    environment = json.loads((run_dir / ENVIRONMENT_FILE).read_text()) if (run_dir / ENVIRONMENT_FILE).is_file() else {}
    labs = load_labs()
    names = _split(args.lab) or sorted({target.split("@")[0] for target in environment.get("labs", {})}) or list(labs)
    builds = {
        name: find_lab(labs, name).for_runtime() for name in names
    }  # each lab's default runtime: the parsers are the lab's
    without_image = tuple(sorted(name for name, build in builds.items() if build.container is None))
    wanted = conformance_backend(args.backend, environment.get("backend"), without_image)
    with engine_for_run(wanted, report=lambda line: print(line, file=sys.stderr)):
        backend, notice = select_backend(wanted, load_isa_table().all_switch_names(), args.bases, None, without_image)
        print(notice, file=sys.stderr)
        if environment.get("backend") and backend.name != environment["backend"]:
            print(
                f"note: the run measured with the {environment['backend']} backend; its conformance runs with "
                f"{backend.name} (the line above says why)",
                file=sys.stderr,
            )
        (run_dir / "logs").mkdir(parents=True, exist_ok=True)
        for name, build in builds.items():
            if backend.name == "native":
                build.check_requirements()
            backend.build(build, run_dir / "logs" / f"conformance-build-{name}.log")
        try:
            out = run_conformance(
                run_dir,
                builds,
                backend,
                DATASETS_DIR,
                environment.get("lab_cpuset") or None,
                progress=lambda line: print(line, file=sys.stderr),
            )
        finally:
            backend.close()
    print(out)
    return 0


def conformance_backend(asked: str, run_backend: str | None, without_image: tuple[str, ...]) -> str:
    """The backend a run's conformance asks for: what the user gave, else the run's own. A run measured natively gets
    native; one measured in containers gets `auto`, so the lab's own engine is started again when none answers (the
    run stopped the one it started) and an engine that cannot be had is said, not silently replaced."""
    if asked != "auto" or without_image:
        return asked
    return "native" if run_backend == "native" else "auto"


def _pin_bases(args: argparse.Namespace) -> int:
    from harness.containers.base_digests import pin, unpinned

    dockerfiles = [
        lab.directory / lab.container.dockerfile for lab in load_labs().values() if lab.container is not None
    ]
    if args.check:
        missing = unpinned(dockerfiles)
        for ref in missing:
            print(
                f"{ref.dockerfile.relative_to(REPO_ROOT)}: {ref.argument}={ref.reference} has no digest",
                file=sys.stderr,
            )
        return 1 if missing else 0
    for before, after in pin(dockerfiles):
        print(f"{before.dockerfile.relative_to(REPO_ROOT)}: {before.argument}={after}", file=sys.stderr)
    return 0


def _local_bases(args: argparse.Namespace) -> int:
    from harness.containers.bases import DOCKER_ARCH_HOST, ensure_local_bases, load_local_bases

    names = _split(args.base) or [
        name for name, base in load_local_bases().items() if base.architecture == DOCKER_ARCH_HOST
    ]
    log_dir = RESULTS_DIR / "build-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    built = ensure_local_bases(list(names), log_dir / "local-bases.log", rebuild=args.rebuild)
    for name in names:
        print(f"{name}: {'built' if name in built else 'present, reused'}", file=sys.stderr)
    return 0


def _compose() -> int:
    from harness.containers.compose import render_compose
    from harness.containers.images import COMPOSE_FILE

    COMPOSE_FILE.write_text(render_compose(load_labs()))
    print(f"wrote {COMPOSE_FILE}", file=sys.stderr)
    return 0


def _plan(args: argparse.Namespace) -> int:
    plan = resolve_plan(_options(args))
    print(plan_summary(plan))
    return 0


def _check(args: argparse.Namespace) -> int:
    from harness.config.check import check_everything, check_experiment_files

    started = time.monotonic()
    lines = check_experiment_files(args.experiments_dir) if args.experiments_dir else check_everything()
    print("\n".join(lines))
    print(f"all checks passed in {time.monotonic() - started:.1f} s; nothing was built or measured")
    return 0


def _import(args: argparse.Namespace) -> int:
    from harness.tools.bdn_import import default_output, import_reports, next_experiment_id

    exp_id = args.id or next_experiment_id()
    result = import_reports(args.reports, exp_id, find_lab(load_labs(), args.lab), load_isa_table())
    if args.out == "-":
        print(result.text, end="")
    else:
        out = pathlib.Path(args.out) if args.out else default_output(exp_id, args.reports[0])
        if out.exists():
            raise HarnessError(f"{out} exists", "give another --out (or --id), or delete the file first")
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


def _doctor(args: argparse.Namespace) -> int:
    text, status = doctor(_split(args.needs), extras=args.all, brief=args.brief)
    print(text)
    return status


def _regenerate_datasets() -> int:
    for dataset in regenerate(load_manifest(), load_labs()):
        print(f"regenerated {dataset.name:20} {dataset.bytes:>9} B  {dataset.sha256[:16]}…  matches the manifest")
    return 0


def _check_datasets() -> int:
    manifest = load_manifest()
    for name in manifest.datasets:
        dataset = manifest.check(name)
        manifest.check_canonical(name)
        canonical = f"  canonical {dataset.canonical['leaves']} leaves" if dataset.canonical else ""
        print(f"ok  {name:16} {dataset.bytes:>9} B  {dataset.sha256[:16]}…  {dataset.path}{canonical}")
    return 0


def _canonical_digests() -> int:
    changed = write_canonical_digests(load_manifest())
    print(f"datasets/manifest.json: {changed} canonical digest(s) written or changed")
    return 0


def main(argv: list[str] | None = None) -> int:
    """Entry point; returns the process exit code."""
    args = _parser().parse_args(argv)
    try:
        if args.command == "run":
            return _run(args)
        if args.command == "build":
            return _build(args)
        if args.command == "images":
            return _images(args)
        if args.command == "local-bases":
            return _local_bases(args)
        if args.command == "pin-bases":
            return _pin_bases(args)
        if args.command == "conformance":
            return _conformance(args)
        if args.command == "compose":
            return _compose()
        if args.command == "list":
            return _list()
        if args.command == "plan":
            return _plan(args)
        if args.command == "doctor":
            return _doctor(args)
        if args.command == "regenerate-datasets":
            return _regenerate_datasets()
        if args.command == "canonical-digests":
            return _canonical_digests()
        if args.command == "check":
            return _check(args)
        if args.command == "import":
            return _import(args)
        if args.command == "env":
            print(json.dumps(collect_host_environment(), indent=2))
            return 0
        return _check_datasets()
    except HarnessError as e:
        print(f"error: {e}", file=sys.stderr)
        print(f"hint: {e.hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print(f"interrupted: {interrupted_hint(args.command, sys.argv[1:] if argv is None else argv)}", file=sys.stderr)
        return 130


def interrupted_hint(command: str, argv: list[str]) -> str:
    """What to do after Ctrl-C: for a run, the command that resumes it (every row written so far is kept)."""
    if command != "run":
        return "nothing was measured; run the command again"
    again = [a for a in argv if a != "--resume"]
    return (
        "every finished process's rows are kept; the one that was running is measured again by "
        f"`python3 -m harness {' '.join([*again, '--resume'])}` (or `just resume PROFILE` with the run's options)"
    )
