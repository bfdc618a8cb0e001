"""A run over several hosts (`harness run --host A --host B`): one run folder, one complete run per host inside it.

Each host's engine is probed first (harness/containers/host_probe.py); a host that does not answer is recorded as lost
and the others go on. The images a host lacks are moved there from this machine's engine
(harness/containers/transfer.py: 5-10x faster than building there, and the same bytes everywhere; docs/hosts.md); a host
of another platform gets them built here for its platform first (build_for_platform, given by the caller). Then every
host gets a process of its own, `harness run` with the same selection, writing `<run>/hosts/<host>/`, a run folder like
any other (its own report, resume and `just compare`), its rows stamped with the host, its docker commands sent to the
host's engine (DOCKER_CONTEXT), its ISA levels planned for its images' architecture (JSONLAB_HOST_ARCH; emulated when
that is not its engine's, JSONLAB_ENGINE_ARCH), and its CPU locks taken on the host's machine: hosts on different
machines measure in parallel, each with the whole budget and a progress line prefixed with its name; two engines on one
machine (the stand-in `second`) share its CPU locks and so take turns (`--wait`), never measuring on one CPU at once,
and share its budget (each gets the run budget divided by the number of hosts on that machine, so the run takes as long
as one host's would; budget_shares). Each host's command line, environment and budget share are worked out in
host_process.py. A host lost mid-run ends its own process with the reason; the others' results are kept. `hosts.json` in
the run folder records each host's facts and outcome. """

from __future__ import annotations

import dataclasses
import pathlib
import platform
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from typing import cast

from harness.config.hosts import LOCAL_HOST, HostSpec
from harness.config.isa import IsaTable
from harness.containers.bases import DOCKER_ARCH_HOST
from harness.containers.host_probe import HostFacts, probe_cpu, probe_engine
from harness.containers.images import debian_arch, inspect_image
from harness.containers.transfer import transfer_image
from harness.host.host_cpus import parse_cpulist
from harness.model.arch import DEBIAN_ARCH
from harness.model.errors import HarnessError
from harness.model.folder.host_facts import HostFactsRecord
from harness.model.folder.hosts_file import write_hosts_file
from harness.model.folder.run_records import HostRecord
from harness.session.host_process import PlatformImages, budget_shares, child_argv, child_environment

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


def host_platform(host: HostSpec, facts: HostFacts) -> str:
    """The platform of the images a host runs: its hosts.toml `platform`, else its engine's architecture."""
    return host.platform or f"linux/{DEBIAN_ARCH.get(facts.arch or '', facts.arch)}"


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
        outcomes[host.name], images, is_ready = _prepare_host(host, isa, image_tags, build_for_platform, built)
        if is_ready:
            if images is not None:
                foreign[host.name] = images
            ready.append((host, outcomes[host.name].facts))
    shares = budget_shares(ready, budget_min)
    for host, facts in ready:
        share = shares.get(host.name)
        if share is not None:
            outcomes[host.name] = dataclasses.replace(outcomes[host.name], budget_min=share)
            _say(f"[{host.name}] shares its machine with other hosts of this run: {share:g} min of the {budget_min:g}")
        given = foreign.get(host.name)
        argv = [sys.executable, "-m", "harness", "run", *child_argv(parent_argv, host, run_dir, share, given, facts)]
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
    record_hosts(run_dir, ordered)
    return ordered


def _prepare_host(
    host: HostSpec,
    isa: IsaTable,
    image_tags: Sequence[str],
    build_for_platform: BuildForPlatform | None,
    built: dict[str, PlatformImages],
) -> tuple[HostOutcome, PlatformImages | None, bool]:
    """One host probed and given its images: its outcome so far, the images built here for it when it runs another
    platform's (None: this machine's own), and whether it is ready to measure (when not, its outcome's facts say why
    and it was said). `built` keeps the images built for each platform, so that each is built once per run."""
    facts = probe_engine(host, isa)
    if not facts.reachable:
        _say(f"[{host.name}] {facts.describe()}: not measured")
        return HostOutcome(host.name, facts), None, False
    problem = cpuset_problem(host, facts)
    if problem:
        _say(f"[{host.name}] {problem}: not measured")
        return HostOutcome(host.name, dataclasses.replace(facts, reason=problem)), None, False
    platform = host_platform(host, facts)
    tags = list(image_tags)
    images = None
    if debian_arch(platform) != DOCKER_ARCH_HOST:
        found = _platform_images(host, platform, build_for_platform, built)
        if isinstance(found, str):
            return HostOutcome(host.name, dataclasses.replace(facts, reason=found)), None, False
        images = found
        tags = list(images.tags)
    try:
        moved = _move_images(tags, host)
    except HarnessError as e:
        _say(f"[{host.name}] {e}: not measured")
        return HostOutcome(host.name, dataclasses.replace(facts, reason=str(e))), images, False
    if tags:  # its CPU, read in a container of a lab image it now has
        facts = probe_cpu(facts, host, tags[0])
    platform_built = images.platform if images is not None else None
    return HostOutcome(host.name, facts, images_moved=tuple(moved), platform=platform_built), images, True


def _platform_images(
    host: HostSpec, platform: str, build_for_platform: BuildForPlatform | None, built: dict[str, PlatformImages]
) -> PlatformImages | str:
    """The images built here for a host of another platform (built once per platform, kept in `built`), or why the
    host is not measured (said here): this run builds none for other platforms, or none could be built for its."""
    if build_for_platform is None:
        _say(f"[{host.name}] its images are for {platform}, and this run builds none for it: not measured")
        return f"no {platform} images"
    if platform not in built:
        _say(f"[{host.name}] runs {platform} images: building them here")
        built[platform] = build_for_platform(platform)
    images = built[platform]
    for note in images.notes:
        _say(f"[{host.name}] {note}")
    if not images.tags:
        reason = f"no lab image could be built for {platform}"
        _say(f"[{host.name}] {reason}: not measured")
        return reason
    return images


def _move_images(tags: Sequence[str], host: HostSpec) -> list[tuple[str, int, float]]:
    """Moves the images the host lacks there from this machine's engine, saying each; returns (image, bytes, seconds)
    of each moved (HarnessError when one cannot be moved)."""
    moved = []
    for tag in images_to_move(tags, host):
        transfer = transfer_image(tag, host)
        moved.append((tag, transfer.bytes, round(transfer.seconds, 1)))
        _say(f"[{host.name}] moved {tag} ({transfer.bytes / 1e6:.0f} MB) in {transfer.seconds:.1f} s")
    return moved


def record_hosts(run_dir: pathlib.Path, outcomes: Sequence[HostOutcome]) -> None:
    """hosts.json: every host's facts and how its run ended."""
    write_hosts_file(
        run_dir,
        [
            HostRecord(
                host=o.host,
                state=o.state,
                facts=cast(HostFactsRecord, dataclasses.asdict(o.facts)),  # the same keys: test_run_records.py
                exit_code=o.exit_code,
                last_line=o.last_line,
                lost=o.lost,
                seconds=round(o.seconds, 1),
                budget_min=o.budget_min,
                platform=o.platform,
                images_moved=[list(m) for m in o.images_moved],
            )
            for o in outcomes
        ],
    )


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


def _machine_of(host: HostSpec, isa: IsaTable) -> str:
    return probe_engine(host, isa).details.get("machine") or platform.node()
