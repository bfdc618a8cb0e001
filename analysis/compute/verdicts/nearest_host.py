"""Which host of a run over several hosts reads a published figure: the one whose CPU is nearest the CPU the figure
was published on (harness/config/cpu_models.py nearness: same microarchitecture, else core lineage, else vendor),
among the hosts that measured it at its ISA level; hosts equally near go in run order. The reason is kept for the
report, so a reader sees why a verdict comes from that host and how near it is."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from harness.config.cpu_models import (
    SAME_ARCH,
    SAME_LINEAGE,
    SAME_MICROARCHITECTURE,
    SAME_VENDOR,
    CpuDescription,
    CpuTable,
    nearness,
)
from harness.model.folder.host_facts import HostFactsRecord


@dataclass(frozen=True)
class HostCpu:
    """A measured host's CPU as its probe described it."""

    name: str
    cpu: CpuDescription

    @classmethod
    def from_facts(cls, name: str, facts: HostFactsRecord, table: CpuTable) -> HostCpu:
        """From a hosts.json entry's facts (harness/containers/host_probe.py HostFacts)."""
        cpu = table.describe_host(
            facts.get("cpu_vendor"), facts.get("cpu_family"), facts.get("cpu_model_number"), facts.get("arch")
        )
        return cls(name, cpu)


def nearest_host(published: CpuDescription, hosts: Sequence[HostCpu]) -> tuple[str | None, str]:
    """The host (among `hosts`, those that measured the figure, in run order) to read it on, and why; None when no
    host is of the published CPU's architecture."""
    if not hosts:
        return None, "no host measured it"
    if published.arch is None:
        return hosts[0].name, f"the published CPU is not described: read on {hosts[0].name}, the first host"
    ranked = [(rank, host) for host in hosts if (rank := nearness(published, host.cpu)) is not None]
    if not ranked:
        return None, f"no host is {published.arch}, as the published {published.describe()} is"
    best = min(rank for rank, _ in ranked)
    near = [host for rank, host in ranked if rank == best]
    reason = f"{near[0].cpu.describe()}: {_WORDS[best].format(published=published.describe())}"
    if len(near) > 1:
        reason += f"; {', '.join(h.name for h in near)} are equally near, the first taken"
    return near[0].name, reason


_WORDS = {
    SAME_MICROARCHITECTURE: "the microarchitecture of the published {published}",
    SAME_LINEAGE: "the core lineage of the published {published}",
    SAME_VENDOR: "the vendor of the published {published} (no host has its microarchitecture or lineage)",
    SAME_ARCH: "only the architecture of the published {published} (no host of its vendor)",
}
