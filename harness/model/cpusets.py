"""CPU sets in taskset syntax, as the run folder records them."""

from __future__ import annotations


def format_cpuset(cpus: tuple[int, ...]) -> str:
    """(0, 1, 2, 5) → '0-2,5'."""
    parts, start = [], None
    for i, cpu in enumerate(cpus):
        if start is None:
            start = cpu
        if i + 1 == len(cpus) or cpus[i + 1] != cpu + 1:
            parts.append(str(start) if start == cpu else f"{start}-{cpu}")
            start = None
    return ",".join(parts)
