"""`harness run` and `harness plan`: measure a profile (the lab's own engine started for it when needed), or say
what it would measure."""

from __future__ import annotations

import argparse
import pathlib
import sys

from harness.backends import select_backend
from harness.backends.docker import DockerBackend
from harness.commands.selection import run_options, split
from harness.config.hosts import LOCAL_HOST, load_hosts, select_hosts
from harness.config.lab.labs import LabSpec
from harness.containers.own_engine import engine_for_run
from harness.host.preflight import check_run
from harness.model.errors import ConfigError, HarnessError
from harness.model.folder.records import DEFAULT_RUNTIME, RowStatus
from harness.model.folder.store import RunStore, new_run_id
from harness.model.folder.stored_names import HOST
from harness.model.groups import elapsed_s, rows_by_group
from harness.planning.plan_summary import plan_summary
from harness.planning.run_plan import ensure_datasets, resolve_plan
from harness.session.host_process import PlatformImages
from harness.session.hosts_run import run_on_hosts
from harness.session.runner import execute_run


def machine_minutes_of(run: pathlib.Path) -> float:
    """A run's machine time in minutes (harness/model/groups.py elapsed_s over its groups), said on stderr: the budget
    that gives another design the same machine time."""
    rows = RunStore(run).rows().values()
    minutes = sum(elapsed_s(group) for group in rows_by_group(rows).values()) / 60
    if minutes <= 0:
        raise HarnessError(f"run {run} has no measured process: no machine time to match", "give a run that measured")
    print(f"budget: {minutes:.1f} min, the machine time of run {run.name} (equal machine time)", file=sys.stderr)
    return minutes


def run_command(args: argparse.Namespace) -> int:
    if args.host and list(dict.fromkeys(split(args.host) or ())) != [LOCAL_HOST]:
        return hosts_run_command(args)
    options = run_options(
        args,
        run_id=args.run_id,
        resume=args.resume,
        results_dir=args.results_dir,
        lab_cpuset=args.cpuset,
        harness_cpuset=args.harness_cpuset,
        warm_cpuset=args.warm_cpuset,
        build=not args.no_build,
        calibrate=not args.no_calibration,
        budget_min=args.budget if args.budget_of is None else machine_minutes_of(args.budget_of),
        wait=args.wait,
        until_decided=args.until_decided,
        max_min=args.max,
    )
    _check_until_decided(args)
    plan = resolve_plan(options)  # a bad selection is reported before anything else happens
    without_image = tuple(sorted({build.name for build in plan.labs.values() if build.container is None}))
    with engine_for_run(
        args.backend if not without_image else HOST,
        args.own_engine,
        report=lambda line: print(line, file=sys.stderr),
    ):
        backend, notice = select_backend(
            args.backend,
            plan.isa.all_switch_names(),
            args.bases,
            args.platform,
            without_image,
            args.container_per_process,
        )
        print(notice, file=sys.stderr)
        backend.host_id = args.host_id  # rows say which host they ran on
        for note in check_run(
            plan, backend.name
        ):  # a missing tool stops the run here, in seconds, before any build or cell
            print(f"note: {note}", file=sys.stderr)
        summary = execute_run(options, backend, plan)
    counts = ", ".join(f"{n} {status}" for status, n in sorted(summary.counts.items()))
    print(f"run finished: {counts}; results in {summary.directory}", file=sys.stderr)
    print(summary.directory)
    return 1 if args.strict and summary.counts.get(RowStatus.FAILED) else 0


def plan_command(args: argparse.Namespace) -> int:
    plan = resolve_plan(run_options(args, results_dir=args.results_dir))
    print(plan_summary(plan))
    from harness.containers.build_estimate import estimate_builds

    print(estimate_builds(plan.labs).describe())
    return 0


def _check_until_decided(args: argparse.Namespace) -> None:
    """--max belongs to --until-decided, which replaces the budget (so --budget with it is refused)."""
    if args.max is not None and not args.until_decided:
        raise ConfigError("--max limits --until-decided", "add --until-decided, or give a budget with --budget MINUTES")
    if args.until_decided and args.budget is not None:
        raise ConfigError(
            "--until-decided replaces the budget: --budget does not go with it", "limit it with --max DURATION instead"
        )


def hosts_run_command(args: argparse.Namespace) -> int:
    """`harness run --host A --host B`: the images built here, moved to each host that lacks them, then one run per
    host in parallel inside one run folder (harness/session/hosts_run.py)."""
    hosts = select_hosts(load_hosts(), split(args.host))
    latest = args.results_dir / "latest"
    resumed = args.resume and not args.run_id and latest.is_symlink()
    run_id = args.run_id or (latest.resolve().name if resumed else new_run_id())
    run_dir = (args.results_dir / run_id).resolve()
    options = run_options(args, results_dir=args.results_dir, check_tools=False)
    plan = resolve_plan(options)
    ensure_datasets(plan, options, lambda line: print(line, file=sys.stderr))  # once here, not once per host
    isa = plan.isa  # the table the plan was resolved with (its labs folder's switches)
    with engine_for_run("docker", args.own_engine, report=lambda line: print(line, file=sys.stderr)):
        backend, notice = select_backend("docker", isa.all_switch_names(), args.bases, args.platform, ())
        print(notice, file=sys.stderr)
        labs = {target: lab for target, lab in plan.labs.items() if lab.container is not None}
        if not args.no_build:
            (run_dir / "logs").mkdir(parents=True, exist_ok=True)
            backend.build_all(labs, run_dir / "logs")
        tags = [backend.image(lab).tag for lab in labs.values()]  # type: ignore[attr-defined]
        budget = plan.budget.minutes if plan.budget is not None else None

        def build_for(platform: str) -> PlatformImages:
            return build_for_platform(labs, platform, args.bases, run_dir / "logs")

        outcomes = run_on_hosts(hosts, isa, run_dir, _argv_after_run(), tags, budget, build_for)
    if latest.is_symlink() or latest.exists():
        latest.unlink()
    latest.symlink_to(run_dir.name)
    for outcome in outcomes:
        print(
            f"host {outcome.host}: {outcome.state}"
            + (f" ({outcome.facts.reason})" if outcome.facts.reason else "")
            + (f", {outcome.seconds / 60:.1f} min" if outcome.exit_code is not None else "")
            + (f": {outcome.lost or outcome.last_line}" if outcome.state == "lost" else ""),
            file=sys.stderr,
        )
    if not any(o.state == "done" for o in outcomes):
        raise HarnessError(
            f"no host was measured (run folder {run_dir})", "check each host with `just hosts` (docs/hosts.md)"
        )
    print(run_dir)
    return 0 if all(o.state == "done" for o in outcomes) else 1


def build_for_platform(labs: dict[str, LabSpec], platform: str, bases: str, log_dir: pathlib.Path) -> PlatformImages:
    """The run's lab images built here for another platform, one at a time so that one that cannot be built (a lab
    whose Dockerfile does not build that platform, a runtime the NuGet feed has no pack of for it) leaves the others;
    what could not be built is said with the reason and its log."""
    backend = DockerBackend(set(), bases, platform=platform)
    log_dir.mkdir(parents=True, exist_ok=True)
    tags: list[str] = []
    runtimes: list[str] = []
    notes: list[str] = []
    for target, lab in labs.items():
        assert lab.container is not None
        if platform not in lab.container.platforms:
            builds = ", ".join(lab.container.platforms)
            notes.append(f"{target}: not for {platform} (lab/{lab.name}/lab.toml platforms: {builds})")
            continue
        log = log_dir / f"build-{target.replace('@', '-')}-{platform.replace('/', '-')}.log"
        try:
            backend.build_all({target: lab}, log_dir, log)
        except HarnessError as e:
            notes.append(f"{target}: no {platform} image ({str(e).splitlines()[0]}; log {log})")
            continue
        tags.append(backend.image(lab).tag)
        runtimes.append(lab.runtime or DEFAULT_RUNTIME)
    return PlatformImages(platform, tuple(tags), tuple(dict.fromkeys(runtimes)), tuple(notes))


def _argv_after_run() -> list[str]:
    """This command's options (everything after `run`), which each host's run repeats with its own values of the
    per-host ones (harness/session/host_process.py child_argv)."""
    argv = sys.argv[1:]
    return argv[argv.index("run") + 1 :] if "run" in argv else argv
