"""`harness hosts`: every host of hosts.toml (or those named) probed through its Docker engine, optionally after
moving lab images there (harness/containers/transfer.py)."""

from __future__ import annotations

import argparse
import dataclasses
import json
import sys

from harness.config.hosts import HostSpec, load_hosts, select_hosts
from harness.config.isa import load_isa_table
from harness.containers.engine import docker
from harness.containers.host_probe import HOST_TIMEOUT_S, HostFacts, probe_cpu, probe_engine
from harness.containers.transfer import transfer_image


def lab_images(host: HostSpec) -> list[str]:
    """The lab's images (jsonlab/…, jsonlab-local/…) the host's engine has, sorted."""
    done = docker(*host.docker_args(), "image", "ls", "--format", "{{.Repository}}:{{.Tag}}", timeout=HOST_TIMEOUT_S)
    names = done.stdout.split() if done.returncode == 0 else []
    return sorted(n for n in names if n.startswith(("jsonlab/", "jsonlab-local/")) and not n.endswith(":<none>"))


def probe_host(host: HostSpec, transfer: list[str]) -> HostFacts:
    """The host's engine, the images asked for moved there, then its CPU read in one of the lab's images."""
    facts = probe_engine(host, load_isa_table())
    if not facts.reachable:
        return facts
    for image in transfer if host.context else ():  # this machine's engine has them already
        moved = transfer_image(image, host)
        print(
            f"{host.name}: moved {image} ({moved.bytes / 1e6:.0f} MB) in {moved.seconds:.1f} s "
            f"({moved.bytes / 1e6 / max(moved.seconds, 1e-9):.0f} MB/s)",
            file=sys.stderr,
        )
    images = lab_images(host)
    if not images:
        return dataclasses.replace(
            facts, reason="no lab image there to read its CPU in: `harness hosts --host NAME --transfer IMAGE`"
        )
    return probe_cpu(facts, host, images[0])


def hosts_command(args: argparse.Namespace) -> int:
    """Probes the hosts; exit 1 when one does not answer."""
    known = load_hosts()
    hosts = select_hosts(known, args.host or list(known))
    results = [probe_host(host, list(args.transfer or ())) for host in hosts]
    if args.json:
        print(json.dumps([dataclasses.asdict(f) for f in results], indent=2))
    else:
        for facts in results:
            print(facts.describe() + (f" ({facts.reason})" if facts.reachable and facts.reason else ""))
    return 0 if all(f.reachable for f in results) else 1
