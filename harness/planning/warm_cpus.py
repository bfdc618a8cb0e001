"""Where the paired-pipelined design warms its processes, and the design a run plays when it has nowhere to warm them.

The design (designs.py) starts each process on a CPU beside the lab's and hands it over warm (harness/backends/
handover.py). That CPU is `--warm-cpuset` when given (a run on another host's engine is given one of that host's CPUs:
harness/session/host_process.py), else the harness's own. A run whose profile names the design but that has no such
CPU (a one-CPU machine, or a host whose engine has one) plays the paired design instead and says so; a run that names
the design itself (`--design paired-pipelined`), or names a warm CPU set the lab uses, is refused with the fix: nothing
the user asked for is replaced by something else.
"""

from __future__ import annotations

import dataclasses

from harness.model.cpusets import format_cpuset, parse_cpuset
from harness.model.errors import PinningError
from harness.planning.designs import DESIGNS, Design

#: `--warm-cpuset none`: the run has no CPU to warm on (a host whose engine has a single CPU).
NO_WARM_CPU = "none"
#: The design played instead of a pipelined one the profile named, when the run has nowhere to warm.
FALLBACK_DESIGN = "paired"


@dataclasses.dataclass(frozen=True)
class WarmPlan:
    """The design the run plays, the CPUs its processes warm on (None: on the lab's, as every design but the
    pipelined one), and why the design is not the one planned (empty when it is)."""

    design: Design
    cpus: tuple[int, ...] | None
    note: str = ""

    @property
    def cpuset(self) -> str | None:
        """The warm CPUs in taskset syntax, or None."""
        return format_cpuset(self.cpus) if self.cpus else None


def plan_warm_cpus(
    design: Design,
    named: bool,
    lab: tuple[int, ...],
    harness: tuple[int, ...] | None,
    warm_option: str | None = None,
) -> WarmPlan:
    """The warm CPUs of a run of `design` (`named`: the user chose it with --design rather than taking the profile's)
    whose lab has `lab` and whose harness has `harness`; `warm_option` is --warm-cpuset. Raises PinningError, with the
    fix, for a named pipelined design with nowhere to warm and for a warm CPU set that overlaps the lab's."""
    if not design.pipelined:
        return WarmPlan(design, None)
    given = warm_option not in (None, NO_WARM_CPU)
    if warm_option == NO_WARM_CPU:
        warm: tuple[int, ...] = ()
    elif warm_option is not None:
        warm = parse_cpuset(warm_option)
    else:
        warm = tuple(harness or ())
    shared = sorted(set(warm) & set(lab))
    if warm and not shared:
        return WarmPlan(design, warm)
    where = "--warm-cpuset" if given else "the harness's CPU"
    reason = (
        f"{where} {format_cpuset(warm)} includes the lab's CPU {format_cpuset(tuple(shared))}"
        if shared
        else f"this run has no CPU beside the lab's {format_cpuset(lab)}"
    )
    if named or given:
        raise PinningError(
            f"the {design.name} design warms each process on a CPU beside the lab's, and {reason}",
            "name a CPU the lab does not use (--warm-cpuset, or --harness-cpuset), run on a machine with two CPUs or "
            f"more, or choose --design {FALLBACK_DESIGN}",
        )
    fallback = DESIGNS[FALLBACK_DESIGN]
    return WarmPlan(
        fallback,
        None,
        f"the profile's {design.name} design runs as {fallback.name}: {reason}, so each process warms on the lab's "
        "CPU before it is timed",
    )
