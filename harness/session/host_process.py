"""Each host's own `harness run` process in a run over several hosts (hosts_run.py): its command line (the parent's
selection with its own run folder, host id, backend, CPU set and `--wait`), its share of the run budget when it shares
its machine with other hosts, the images built here for it when it runs another platform's, and its environment (its
engine, its images' and its engine's architectures, its machine's CPU lock folder). Kept apart from hosts_run.py, which
probes the hosts, moves their images, starts these processes and records how they ended: this is what each process is
given, worked out from the host's facts alone.
"""

from __future__ import annotations

import dataclasses
import os
import pathlib
from collections.abc import Sequence

from harness.config.hosts import HostSpec
from harness.containers.host_probe import HostFacts
from harness.containers.images import debian_arch
from harness.host.cpu_lock import LOCK_DIR_VARIABLE, lock_dir
from harness.host.host_cpus import parse_cpulist
from harness.model.arch import ENGINE_ARCH_VARIABLE, HOST_ARCH_VARIABLE, lab_arch
from harness.model.folder.run_folder import HOSTS_DIR
from harness.planning.warm_cpus import NO_WARM_CPU

#: Options of the parent's command line each host's process gets its own value of (or none).
_PER_HOST_OPTIONS = (
    "--host",
    "--run-id",
    "--results-dir",
    "--cpuset",
    "--warm-cpuset",
    "--backend",
    "--own-engine",
    "--host-id",
)
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


def child_argv(
    parent_argv: Sequence[str],
    host: HostSpec,
    run_dir: pathlib.Path,
    budget_min: float | None = None,
    images: PlatformImages | None = None,
    facts: HostFacts | None = None,
) -> list[str]:
    """The host's `harness run` command line: the parent's selection and settings, its own run folder, host id,
    backend (docker for any engine but this machine's own processes: the host backend), CPU set, `--wait`, its share
    of the budget when it has one (budget_shares), and for a host of another platform its images' platform and
    runtimes, nothing built there (the images built here for it); a host on another engine, the CPU its pipelined
    processes warm on (warm_cpuset_of, from its `facts`)."""
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
    warm = warm_cpuset_of(host, facts) if host.context and facts is not None else None
    if warm:
        argv += ["--warm-cpuset", warm]
    return argv


def warm_cpuset_of(host: HostSpec, facts: HostFacts) -> str | None:
    """Where a host's processes warm under the paired-pipelined design (harness/planning/warm_cpus.py): the lowest of
    its engine's CPUs that its lab does not use (hosts.toml `cpuset`, else its highest isolated CPU, else its highest),
    one not isolated when there is one; NO_WARM_CPU when the lab has them all; None when its engine did not say how
    many CPUs it has (the harness's CPU then, as for this machine's engine)."""
    if not isinstance(facts.cpus, int) or facts.cpus < 1:
        return None
    isolated = set(_cpus_or_none(facts.isolated_cpus))
    lab = set(_cpus_or_none(host.cpuset)) or {max(isolated or {facts.cpus - 1})}
    rest = (cpu for cpu in range(facts.cpus) if cpu not in lab)  # lazily: an engine may claim a great many CPUs
    first = next(rest, None)
    if first is None:
        return NO_WARM_CPU
    if first not in isolated:
        return str(first)
    return str(next((cpu for cpu in rest if cpu not in isolated), first))


def _cpus_or_none(text: str | None) -> tuple[int, ...]:
    """A cpulist the host gave (its engine's isolated CPUs, hosts.toml's cpuset), () when absent or not one."""
    try:
        return parse_cpulist(text) if text else ()
    except ValueError:
        return ()


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


def child_environment(
    host: HostSpec, facts: HostFacts, local_machine: str | None, platform: str | None = None
) -> dict[str, str]:
    """DOCKER_CONTEXT for the host's engine; the architecture its ISA levels are planned for (its images') and its
    engine's own (processes of another are emulated: harness/model/arch.py); its machine's CPU lock folder."""
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


def _backend_of(argv: Sequence[str]) -> str | None:
    for index, arg in enumerate(argv):
        if arg == "--backend" and index + 1 < len(argv):
            return argv[index + 1]
        if arg.startswith("--backend="):
            return arg.split("=", 1)[1]
    return None
