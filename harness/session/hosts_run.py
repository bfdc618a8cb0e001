"""A run over several hosts (`harness run --host A --host B`): one run folder, one complete run per host inside it.

Each host's engine is probed first (harness/host/host_probe.py); a host that does not answer is recorded as lost and
the others go on. The images a host lacks are moved there from this machine's engine (harness/containers/transfer.py:
5-10x faster than building there, and the same bytes everywhere; docs/hosts.md); a host of another platform gets them
built here for its platform first (build_for_platform, given by the caller). Then every host gets a process of its
own, `harness run` with the same selection, writing `<run>/hosts/<host>/`, a run folder like any other (its own
report, resume and `just compare`), its rows stamped with the host, its docker commands sent to the host's engine
(DOCKER_CONTEXT), its ISA levels planned for its images' architecture (JSONLAB_HOST_ARCH; emulated when that is not
its engine's, JSONLAB_ENGINE_ARCH), and its CPU locks taken on the host's machine: hosts on different machines measure
in parallel, each with the whole budget and a progress line prefixed with its name; two engines on one machine (the
stand-in `second`) share its CPU locks and so take turns (`--wait`), never measuring on one CPU at once, and share its
budget (each gets the run budget divided by the number of hosts on that machine, so the run takes as long as one
host's would; budget_shares). A host lost mid-run ends its own process with the reason; the others' results are kept.
`hosts.json` in the run folder records each host's facts and outcome.
"""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence

from harness.config.hosts import LOCAL_HOST, HostSpec
from harness.config.isa import IsaTable
from harness.containers.bases import DOCKER_ARCH_HOST
from harness.containers.images import debian_arch, inspect_image
from harness.containers.transfer import transfer_image
from harness.host.cpu_lock import LOCK_DIR_VARIABLE, lock_dir
from harness.host.host_cpus import parse_cpulist
from harness.host.host_probe import HostFacts, probe_cpu, probe_engine
from harness.model.errors import HarnessError
from harness.model.run_folder import HOSTS_DIR, HOSTS_FILE
from harness.host.arch import DEBIAN_ARCH, ENGINE_ARCH_VARIABLE, HOST_ARCH_VARIABLE, lab_arch

#: Options of the parent's command line each host's process gets its own value of (or none).
_PER_HOST_OPTIONS = ("--host", "--run-id", "--results-dir", "--cpuset", "--backend", "--own-engine", "--host-id")
_BUDGET_OPTION = "--budget"
#: Options a host of another platform gets its own value of: the images built for it here, nothing built there.
_PLATFORM_OPTIONS = ("--platform", "--runtime", "--no-build")


@dataclasses.dataclass(frozen=True)
class PlatformImages:
    """The lab images built on this machine for another platform (a host of another architecture, or one told to run
    another platform's images): their tags and runtimes, and why the others could not be built."""

    platform: str
    tags: tuple[str, ...]
    runtimes: tuple[str, ...]
    notes: tuple[str, ...] = ()


#: Builds the run's lab images for a platform (harness/commands/run.py gives the real one).
BuildForPlatform = Callable[[str], PlatformImages]


@dataclasses.dataclass(frozen=True)
class HostOutcome:
    """How a host's run ended: its exit code and last words, or why it never started."""

    host: str
    facts: HostFacts
    exit_code: int | None = None
    last_line: str = ""
    seconds: float = 0.0
    images_moved: tuple[tuple[str, int, float], ...] = ()  # (image, bytes, seconds)
    lost: str = ""  # why the host counts as lost although its process ended (its engine stopped answering)
    budget_min: float | None = None  # its share of the run budget when it shares a machine with other hosts
    platform: str | None = None  # the platform of its images when it is not this machine's (built here for it)

    @property
    def state(self) -> str:
        """unreachable (its engine did not answer), not measured (reason in its facts), done or lost (its run ended
        with an error)."""
        if not self.facts.reachable:
            return "unreachable"
        if self.exit_code is None:
            return "not measured"
        return "done" if self.exit_code == 0 and not self.lost else "lost"


def child_argv(
    parent_argv: Sequence[str],
    host: HostSpec,
    run_dir: pathlib.Path,
    budget_min: float | None = None,
    images: PlatformImages | None = None,
) -> list[str]:
    """The host's `harness run` command line: the parent's selection and settings, its own run folder, host id,
    backend (docker for any engine but this machine's native processes), CPU set, `--wait`, its share of the budget
    when it has one (budget_shares), and for a host of another platform its images' platform and runtimes, nothing
    built there (the images built here for it)."""
    own = _PER_HOST_OPTIONS + ((_BUDGET_OPTION,) if budget_min is not None else ())
    own += _PLATFORM_OPTIONS if images is not None else ()
    kept: list[str] = []
    skip = False
    for arg in parent_argv:
        if skip:
            skip = False
            continue
        name = arg.split("=", 1)[0]
        if name in own:
            skip = "=" not in arg and name != "--no-build"
            continue
        kept.append(arg)
    if budget_min is not None:
        kept += [_BUDGET_OPTION, f"{budget_min:g}"]
    if images is not None:
        kept += ["--platform", images.platform, "--runtime", ",".join(images.runtimes), "--no-build"]
    if "--wait" not in kept:
        kept.append("--wait")
    argv = [*kept, "--run-id", host.name, "--results-dir", str(run_dir / HOSTS_DIR), "--host-id", host.name]
    backend = _backend_of(parent_argv)
    if host.context:
        argv += ["--backend", "docker", "--own-engine", "never"]
    elif backend:
        argv += ["--backend", backend]
    if host.cpuset:
        argv += ["--cpuset", host.cpuset]
    return argv


def cpuset_problem(host: HostSpec, facts: HostFacts) -> str:
    """Why the host's CPU set (hosts.toml) cannot be used there: CPUs its engine does not have; empty when it can
    (or names none, or the engine did not say how many CPUs it has)."""
    if not host.cpuset or not facts.cpus:
        return ""
    missing = [cpu for cpu in parse_cpulist(host.cpuset) if cpu >= facts.cpus]
    if not missing:
        return ""
    return (
        f"its cpuset {host.cpuset} in hosts.toml names CPU(s) {', '.join(map(str, missing))}, but the host has "
        f"{facts.cpus} (0-{facts.cpus - 1}): fix the cpuset in hosts.toml (`just hosts` shows each host's CPUs)"
    )


def budget_shares(ready: Sequence[tuple[HostSpec, HostFacts]], budget_min: float | None) -> dict[str, float]:
    """Each host's budget in minutes when it shares its machine (the engine's `docker info` name) with other hosts of
    the run: they take turns on its CPUs, so each gets the run budget divided by their number; hosts alone on their
    machine are left out (they keep the whole budget). No budget (none, or 0 for none): no shares."""
    if not budget_min:
        return {}
    machines: dict[str, list[str]] = {}
    for host, facts in ready:
        machines.setdefault(facts.details.get("machine") or host.name, []).append(host.name)
    return {name: round(budget_min / len(names), 1) for names in machines.values() if len(names) > 1 for name in names}


def host_platform(host: HostSpec, facts: HostFacts) -> str:
    """The platform of the images a host runs: its hosts.toml `platform`, else its engine's architecture."""
    return host.platform or f"linux/{DEBIAN_ARCH.get(facts.arch or '', facts.arch)}"


def child_environment(
    host: HostSpec, facts: HostFacts, local_machine: str | None, platform: str | None = None
) -> dict[str, str]:
    """DOCKER_CONTEXT for the host's engine; the architecture its ISA levels are planned for (its images') and its
    engine's own (processes of another are emulated: harness/host/arch.py); its machine's CPU lock folder."""
    env = dict(os.environ)
    if host.context:
        env["DOCKER_CONTEXT"] = host.context
    if facts.arch:
        env[HOST_ARCH_VARIABLE] = lab_arch(debian_arch(platform)) if platform else facts.arch
        env[ENGINE_ARCH_VARIABLE] = facts.arch
    machine = facts.details.get("machine")
    if machine and machine != local_machine:
        env[LOCK_DIR_VARIABLE] = str(lock_dir() / f"machine-{machine}")
    return env


def images_to_move(tags: Sequence[str], host: HostSpec) -> list[str]:
    """The images this machine's engine has and another host's has not, or has as another image."""
    if host.context is None:
        return []
    here = {tag: inspect_image(tag) for tag in tags}
    return [
        tag
        for tag, info in here.items()
        if info is not None and info.image_id != getattr(inspect_image(tag, host.docker_args()), "image_id", None)
    ]


def run_on_hosts(
    hosts: Sequence[HostSpec],
    isa: IsaTable,
    run_dir: pathlib.Path,
    parent_argv: Sequence[str],
    image_tags: Sequence[str],
    budget_min: float | None = None,
    build_for_platform: BuildForPlatform | None = None,
) -> list[HostOutcome]:
    """Probes every host, moves the images it lacks, runs one `harness run` per reachable host in parallel (hosts on
    one machine in turn, sharing `budget_min`, the run's budget), and records hosts.json; returns each host's
    outcome."""
    run_dir.mkdir(parents=True, exist_ok=True)
    local_machine = _machine_of(HostSpec(LOCAL_HOST), isa)
    started: list[tuple[HostSpec, HostFacts, subprocess.Popen, float, list, list, threading.Thread]] = []
    outcomes: dict[str, HostOutcome] = {}
    ready: list[tuple[HostSpec, HostFacts]] = []
    foreign: dict[str, PlatformImages] = {}  # per host of another platform: the images built here for it
    built: dict[str, PlatformImages] = {}  # per platform
    for host in hosts:  # every host probed and given its images before any measures: a transfer is CPU work
        facts = probe_engine(host, isa)
        if not facts.reachable:
            _say(f"[{host.name}] {facts.describe()}: not measured")
            outcomes[host.name] = HostOutcome(host.name, facts)
            continue
        problem = cpuset_problem(host, facts)
        if problem:
            _say(f"[{host.name}] {problem}: not measured")
            outcomes[host.name] = HostOutcome(host.name, dataclasses.replace(facts, reason=problem))
            continue
        platform = host_platform(host, facts)
        tags = list(image_tags)
        if debian_arch(platform) != DOCKER_ARCH_HOST:
            if build_for_platform is None:
                _say(f"[{host.name}] its images are for {platform}, and this run builds none for it: not measured")
                outcomes[host.name] = HostOutcome(host.name, dataclasses.replace(facts, reason=f"no {platform} images"))
                continue
            if platform not in built:
                _say(f"[{host.name}] runs {platform} images: building them here")
                built[platform] = build_for_platform(platform)
            images = built[platform]
            for note in images.notes:
                _say(f"[{host.name}] {note}")
            if not images.tags:
                reason = f"no lab image could be built for {platform}"
                _say(f"[{host.name}] {reason}: not measured")
                outcomes[host.name] = HostOutcome(host.name, dataclasses.replace(facts, reason=reason))
                continue
            foreign[host.name] = images
            tags = list(images.tags)
        moved = []
        try:
            for tag in images_to_move(tags, host):
                transfer = transfer_image(tag, host)
                moved.append((tag, transfer.bytes, round(transfer.seconds, 1)))
                _say(f"[{host.name}] moved {tag} ({transfer.bytes / 1e6:.0f} MB) in {transfer.seconds:.1f} s")
        except HarnessError as e:
            _say(f"[{host.name}] {e}: not measured")
            outcomes[host.name] = HostOutcome(host.name, dataclasses.replace(facts, reason=str(e)))
            continue
        if tags:  # its CPU, read in a container of a lab image it now has
            facts = probe_cpu(facts, host, tags[0])
        outcomes[host.name] = HostOutcome(
            host.name,
            facts,
            images_moved=tuple(moved),
            platform=foreign[host.name].platform if host.name in foreign else None,
        )
        ready.append((host, facts))
    shares = budget_shares(ready, budget_min)
    for host, facts in ready:
        share = shares.get(host.name)
        if share is not None:
            outcomes[host.name] = dataclasses.replace(outcomes[host.name], budget_min=share)
            _say(f"[{host.name}] shares its machine with other hosts of this run: {share:g} min of the {budget_min:g}")
        given = foreign.get(host.name)
        argv = [sys.executable, "-m", "harness", "run", *child_argv(parent_argv, host, run_dir, share, given)]
        env = child_environment(host, facts, local_machine, given.platform if given else None)
        process = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        lines: list[str] = []
        ended: list[float] = []
        reader = threading.Thread(target=_relay, args=(host.name, process, lines, ended), daemon=True)
        reader.start()
        started.append((host, facts, process, time.monotonic(), lines, ended, reader))
    for host, facts, process, began, lines, ended, reader in started:
        reader.join()
        last = next((line for line in reversed(lines) if line.strip()), "")
        after = probe_engine(host, isa)
        outcomes[host.name] = dataclasses.replace(
            outcomes[host.name],
            exit_code=process.returncode,
            last_line=last,
            seconds=ended[0] - began,
            lost="" if after.reachable else f"its engine stopped answering during the run ({after.reason})",
        )
    ordered = [outcomes[h.name] for h in hosts]
    write_hosts_file(run_dir, ordered)
    return ordered


def write_hosts_file(run_dir: pathlib.Path, outcomes: Sequence[HostOutcome]) -> None:
    """hosts.json: every host's facts and how its run ended."""
    data = [
        {
            "host": o.host,
            "state": o.state,
            "exit_code": o.exit_code,
            "last_line": o.last_line,
            "lost": o.lost,
            "seconds": round(o.seconds, 1),
            "budget_min": o.budget_min,
            "platform": o.platform,
            "images_moved": [list(m) for m in o.images_moved],
            "facts": dataclasses.asdict(o.facts),
        }
        for o in outcomes
    ]
    (run_dir / HOSTS_FILE).write_text(json.dumps({"schema_version": 1, "hosts": data}, indent=2) + "\n")


def _relay(name: str, process: subprocess.Popen, lines: list[str], ended: list[float]) -> None:
    """The host's progress, each line prefixed with its name, as it comes; its stdout (the run folder) is read after,
    and the moment the process ended goes into `ended`."""
    assert process.stderr is not None
    for line in process.stderr:
        lines.append(line.rstrip("\n"))
        _say(f"[{name}] {line.rstrip()}")
    if process.stdout is not None:
        process.stdout.read()
    process.wait()
    ended.append(time.monotonic())


def _say(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _backend_of(argv: Sequence[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--backend" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--backend="):
            return arg.split("=", 1)[1]
    return None


def _machine_of(host: HostSpec, isa: IsaTable) -> str:
    return probe_engine(host, isa).details.get("machine") or platform.node()
