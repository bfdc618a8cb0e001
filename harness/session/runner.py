"""Running a profile: load configuration, build and probe labs, write the environment, then hand the
planned cells to the replicate loop (harness/session/rounds/scheduler.py).

A failing cell is recorded and the run goes on; a resumed run skips the processes that already
have a measured or skipped row and retries failed ones.
"""

from __future__ import annotations

import contextlib
import dataclasses
import os
import pathlib
import shutil
import sys
import time
from dataclasses import dataclass
from typing import Required, TypedDict

from harness.backends.base import Backend
from harness.builds.library_locks import prepare_library_builds
from harness.config.data.declared_models import load_spaces
from harness.config.hosts import HostSpec
from harness.containers.host_probe import probe_cpu, probe_engine
from harness.host.cpu_hygiene import CpuHygiene, plan_and_check
from harness.host.cpu_lock import cpus_locked
from harness.host.environment import collect_host_environment
from harness.model.arch import host_arch
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ResumeError
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.host_facts import HostFactsRecord
from harness.model.folder.run_folder import (
    ENVIRONMENT_FILE,
    KEPT_EXPERIMENTS_DIR,
    KEPT_LAB_FILES,
    KEPT_LABS_DIR,
    LOGS_DIR,
    RUN_FILE,
)
from harness.model.folder.run_records import PREPARE, SESSION, RunRecord
from harness.model.folder.store import RunStore, new_run_id
from harness.planning.history import load_history
from harness.planning.pinning import CpuPlan, pin_current_process
from harness.planning.run_plan import Plan, RunOptions, ensure_datasets, resolve_plan
from harness.planning.warm_cpus import WarmPlan, plan_warm_cpus
from harness.session.build_isolation import build_isolated, unbuilt_rows
from harness.session.model_readback import check_model_readback
from harness.session.processes.probe import LabProbe, check_arch, check_variants, probe_lab
from harness.session.processes.session_setup import setup_for_run
from harness.session.rounds.budget import RunBudget
from harness.session.rounds.open_claims import claims_by_group
from harness.session.rounds.progress import RunProgress
from harness.session.rounds.scheduler import Session


@dataclass(frozen=True)
class RunSummary:
    """Counts by status after a run, and where it is."""

    directory: pathlib.Path
    counts: dict[str, int]


def _open_store(options: RunOptions, plan: Plan) -> RunStore:
    selection = plan.selection()
    if not options.resume:
        store = RunStore.create(options.results_dir, options.run_id or new_run_id())
        budget = None if plan.budget is None else dataclasses.asdict(plan.budget)
        # read back as the analysis will read it: the record's checks hold the writer too
        record = RunRecord.from_dict({"run_id": store.run_id, **selection, "budget": budget}, RUN_FILE)
        store.write_json(RUN_FILE, record.to_dict())
        kept = store.path(KEPT_EXPERIMENTS_DIR)
        kept.mkdir(exist_ok=True)
        for experiment in plan.experiments:
            shutil.copy2(experiment.path, kept / experiment.path.name)
        for lab in {build.directory: build for build in plan.labs.values()}.values():
            kept_lab = store.path(KEPT_LABS_DIR) / lab.directory.name
            kept_lab.mkdir(parents=True, exist_ok=True)
            for name in KEPT_LAB_FILES:
                if (lab.directory / name).is_file():
                    shutil.copy2(lab.directory / name, kept_lab / name)
        return store
    store = RunStore.open(options.results_dir, options.run_id)
    recorded = store.run_record()
    if recorded.selection() != selection:
        raise ResumeError(
            f"run {store.run_id} was started with profile '{recorded.profile}' and {len(recorded.cells)} cells; "
            f"this command plans profile '{plan.profile_name}' with {len(plan.cells)} cells",
            "resume with the same --profile / --design / --experiment / --isa / --benchmark / --variant (and "
            "--until-decided) as the original run",
        )
    moved = store.set_aside_torn_line()  # a torn last line (the run was stopped mid-write): kept aside, re-measured
    if moved:
        _say(f"note: {moved}")
    return store


def _write_environment(
    store: RunStore,
    plan: Plan,
    cpus: CpuPlan,
    probes: dict[str, LabProbe],
    backend: Backend,
    hygiene: CpuHygiene,
    warm: WarmPlan,
) -> None:
    # this host's environment, completed with the run's: a document EnvironmentRecord.from_dict checks field by field
    env: dict[str, object] = {
        **collect_host_environment(hygiene.to_dict()),
        "backend": backend.name,
        "lab_cpuset": cpus.lab_cpuset,
        "harness_cpus": list(cpus.harness or ()),
        "warm_cpus": list(warm.cpus or ()),  # where a pipelined design's processes warm (planning/warm_cpus.py)
        "design_note": warm.note,  # why the run's design is not its profile's (empty when it is)
        "container_engine": backend.engine_description(),
    }
    if backend.host_id:
        env.update(measured_host(backend.host_id, plan, backend))
    env["labs"] = {
        name: {
            "env": p.env,
            "variants": p.listing["variants"],
            "emulated": p.emulated,
            "runtime": plan.labs[name].runtime,
            "expected_runtime_version": plan.labs[name].expected_version(),
            "lab_environment": plan.labs[name].environment,
            "where": backend.details(plan.labs[name]),
            "isa_levels": {lvl: dataclasses.asdict(lp) for lvl, lp in p.levels.items()},
        }
        for name, p in probes.items()
    }
    # The first session's environment stays environment.json; a resumed session adds its own file.
    name = ENVIRONMENT_FILE if not store.path(ENVIRONMENT_FILE).exists() else f"environment.resumed-{new_run_id()}.json"
    store.write_json(name, EnvironmentRecord.from_dict(env, name).to_dict())


class MeasuredHost(TypedDict, total=False):
    """environment.json's fields of the host a run over several hosts measured on (measured_host): its facts, and in
    place of this machine's, its CPU and kernel where its engine told them."""

    host: Required[HostFactsRecord]
    cpu_model: str
    cpu_flags: list[str]
    logical_cpus: int | None
    kernel: str


def measured_host(host_id: str, plan: Plan, backend: Backend) -> MeasuredHost:
    """For a run on one host of a run over several (harness/session/hosts_run.py): that host's facts as its engine gives
    them (DOCKER_CONTEXT reaches it), in place of this machine's CPU, kernel and core count, and under `host`."""
    if not backend.in_containers:  # this machine's own processes: the environment above is the host's already
        return {"host": {"name": host_id, "context": None, "reachable": True, "reason": "host backend"}}
    host = HostSpec(host_id, os.environ.get("DOCKER_CONTEXT"))
    facts = probe_engine(host, plan.isa)
    images = [tag for lab in plan.labs.values() if lab.container and (tag := backend.image_tag(lab))]
    if images:
        facts = probe_cpu(facts, host, images[0])
    fields: MeasuredHost = {"host": facts.record()}
    if facts.cpu_model:
        fields.update({"cpu_model": facts.cpu_model, "cpu_flags": list(facts.cpu_flags), "logical_cpus": facts.cpus})
    if facts.kernel:
        fields["kernel"] = facts.kernel
    return fields


def _probe_labs(
    plan: Plan, backend: Backend, store: RunStore, build: bool, cpuset: str
) -> tuple[dict[str, LabProbe], Plan]:
    """The lab builds made (each alone when together they fail: harness/session/build_isolation.py) and probed; the
    plan without the builds that failed, whose cells get a failed row each with the build's cause."""
    probes: dict[str, LabProbe] = {}
    if build:
        prepare_library_builds(plan.labs.values(), store.path(LOGS_DIR), lambda line: print(line, file=sys.stderr))
        failed = build_isolated(backend, plan.labs, store.path(LOGS_DIR), _say)
        for row in unbuilt_rows(store.run_id, plan.cells, failed, plan.profile_name, plan.design.name, cpuset):
            store.append(row)
        plan = dataclasses.replace(
            plan,
            labs={target: lab for target, lab in plan.labs.items() if target not in failed},
            cells=[cell for cell in plan.cells if cell.target not in failed],
        )
    for name, lab in plan.labs.items():
        probes[name] = probe_lab(backend, lab, list(plan.levels.values()), plan.isa)
        if not backend.emulates:
            check_arch(probes[name], host_arch())
        check_variants(probes[name], plan.cells)
        if lab.declared_models is not None:
            check_model_readback(name, probes[name].listing, load_spaces(lab.models_from or DATASETS_DIR))
    return probes, plan


def execute_run(options: RunOptions, backend: Backend, plan: Plan | None = None) -> RunSummary:
    """The whole run: plan, take the lab CPUs' locks (harness/host/cpu_lock.py), build, probe, then the replicate
    loop, storing each row as it finishes."""
    plan = plan or resolve_plan(options)  # the caller's, resolved once per run, when it has one
    ensure_datasets(plan, options, _say)  # a generated dataset not built yet, built and checked before any lock
    cpus, hygiene = plan_and_check(options.lab_cpuset, options.harness_cpuset, plan.design.lab_cpus_needed)
    hygiene.announce()  # isolation, governor, turbo, SMT of the lab's CPUs, with fixes, before anything is built
    warm = plan_warm_cpus(plan.design, options.design is not None, cpus.lab, cpus.harness, options.warm_cpuset)
    if warm.design is not plan.design:  # the profile's pipelined design, with nowhere to warm: paired, said
        _say(f"note: {warm.note}")
        plan = dataclasses.replace(
            plan,
            design=warm.design,
            history=load_history(options.results_dir, warm.design.name, plan.job, [c.cell_id for c in plan.cells]),
        )
    if not options.resume and options.run_id is None:
        options = dataclasses.replace(options, run_id=new_run_id())
    locked = (*cpus.lab, *(warm.cpus or ()))  # a pipelined design warms on a CPU beside the lab's
    lock = (
        cpus_locked(locked, options.run_id or "a resumed run", options.wait, notify=_say)
        if backend.measures
        else contextlib.nullcontext()
    )
    with lock:
        return _measure(options, backend, plan, cpus, hygiene, warm)


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _measure(
    options: RunOptions, backend: Backend, plan: Plan, cpus: CpuPlan, hygiene: CpuHygiene, warm: WarmPlan
) -> RunSummary:
    """Everything after the locks: the timeline counts from here (a queued run's wait is not spent), the budget from
    the end of the preparation (builds, lab probes, the environment), which the run says it took."""
    started = time.monotonic()
    store = _open_store(options, plan)
    if options.pin_harness:
        pin_current_process(cpus.harness)
    probes, plan = _probe_labs(plan, backend, store, options.build, cpus.lab_cpuset)
    _write_environment(store, plan, cpus, probes, backend, hygiene, warm)
    store.mark_latest()
    store.record_phase(PREPARE, started, "plan, build, probe the labs and their ISA levels, capture the environment")
    budget = _start_budget(plan, options, started)

    progress = RunProgress(len(store.rows()))
    warmed = f", processes warmed on CPU {warm.cpuset}" if warm.cpuset else ""
    progress.note(
        f"run {store.run_id}: {len(plan.cells)} cells, design {plan.design.name}, {plan.estimate()}; "
        f"lab pinned to CPU {cpus.lab_cpuset}{warmed}; results in {store.directory}"
    )
    for lab_probe in probes.values():
        for level in lab_probe.levels.values():
            if level.state != "run":
                progress.note(f"{lab_probe.lab} ISA level {level.level}: {level.state}: {level.detail}")
    session = Session(
        setup=setup_for_run(plan, options, store, backend, probes, tuple(str(c) for c in cpus.lab), warm.cpuset),
        progress=progress,
        calibrate=options.calibrate,
        budget=budget,
        claims=claims_by_group(plan.experiments, plan.cells, lambda cell: measured_arch(probes.get(cell.target))),
        history=plan.history,
        shot_costs=plan.shot_costs,
    )
    try:
        session.run(plan.cells)
    finally:
        backend.close()
        progress.close()
        store.record_phase(SESSION, started, "the whole session, from plan to the last row")
    counts: dict[str, int] = {}
    for row in store.rows().values():
        status = "replaced" if row.replaced else row.status  # a disturbed process a fresh one replaced
        counts[status] = counts.get(status, 0) + 1
    return RunSummary(store.directory, counts)


def _start_budget(plan: Plan, options: RunOptions, prepared_from: float) -> RunBudget | None:
    """The session's budget, from now: the end of its preparation, which is said with how long it took."""
    if plan.budget is None:
        return None
    _say(
        f"prepared in {(time.monotonic() - prepared_from) / 60:.1f} min (builds, lab probes, ISA checks): the "
        f"{plan.budget.minutes:g}-min {'--until-decided limit' if plan.budget.until_decided else 'budget'} starts now"
    )
    return RunBudget(plan.budget, options.clock(), options.clock)


def measured_arch(probe: LabProbe | None) -> str | None:
    """The architecture a lab build's processes report ("" for an emulated build: no reading; None when unknown)."""
    if probe is None:
        return None
    return "" if probe.emulated else probe.env.get("arch")
