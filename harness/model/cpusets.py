"""CPU sets in taskset syntax, as the run folder records them."""

from __future__ import annotations

from harness.model.errors import PinningError


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


def parse_cpuset(text: str) -> tuple[int, ...]:
    """'0-2,5' → (0, 1, 2, 5); raises PinningError on malformed text."""
    cpus: set[int] = set()
    try:
        for part in text.split(","):
            lo, _, hi = part.strip().partition("-")
            cpus.update(range(int(lo), int(hi or lo) + 1))
    except ValueError as e:
        raise PinningError(f"malformed CPU set '{text}'", "write it like taskset does: 1 or 0-3 or 0,2") from e
    if not cpus:
        raise PinningError(f"empty CPU set '{text}'", "name at least one CPU, e.g. --cpuset 1")
    return tuple(sorted(cpus))
