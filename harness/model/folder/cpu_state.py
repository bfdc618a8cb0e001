"""The CPU state a run recorded (environment.json's `cpu_hygiene`: the lab's and the harness's CPUs, the isolated set,
each lab CPU's governor, SMT siblings and turbo, and the findings with their fixes) said as text, for the run's first
lines and the report alike. The readings are taken by harness/host/cpu_hygiene.py."""

from __future__ import annotations

from typing import TypedDict

from harness.model.cpusets import format_cpuset


class CpuStateRecord(TypedDict, total=False):
    """One lab CPU's state in `cpus` (harness/host/host_cpus.py CpuState)."""

    cpu: int
    governor: str | None
    frequency_driver: str | None
    smt_siblings: list[int] | None
    smt_siblings_online: list[int]
    isolated: bool
    nohz_full: bool | None


class FindingRecord(TypedDict, total=False):
    """One finding in `findings` (harness/host/cpu_hygiene.py Finding)."""

    kind: str
    what: str
    why: str
    fix: str
    cpu: int | None
    alternative: str | None


class HygieneRecord(TypedDict, total=False):
    """environment.json's `cpu_hygiene` as harness/host/cpu_hygiene.py CpuHygiene.to_dict() writes it. A run folder is
    untrusted, and each of these reaches the report's text (tests/harness/model/test_environment_record.py holds the
    keys to the writer's); keys a run recorded before one existed may be missing."""

    lab_cpus: list[int]
    harness_cpus: list[int]
    isolated_cpus: list[int] | None
    nohz_full_cpus: list[int] | None
    usable_cpus: list[int]
    turbo: bool | None
    turbo_switch: str | None
    cpus: list[CpuStateRecord]
    findings: list[FindingRecord]


def _cpus_text(cpus: list[int] | None, none: str) -> str:
    """A recorded CPU list in taskset syntax; `none` when it was not exposed, 'none' when empty."""
    return none if cpus is None else (format_cpuset(tuple(cpus)) or "none")


def finding_text(finding: FindingRecord) -> str:
    """'what: why; fix: `command`' (or: `other command`) for one recorded finding."""
    other = f" (or: `{finding['alternative']}`)" if finding.get("alternative") else ""
    return f"{finding.get('what')}: {finding.get('why')}; fix: `{finding.get('fix')}`{other}"


def describe_cpu(state: CpuStateRecord, turbo: bool | None) -> str:
    """'CPU 3 (isolated): governor performance, SMT sibling 7 offline, turbo off' from a recorded CpuState; unknowns
    are said as 'not exposed'."""
    siblings, online = state.get("smt_siblings"), state.get("smt_siblings_online") or []
    if siblings is None:
        smt = "SMT siblings not exposed"
    else:
        smt = (
            ", ".join(f"SMT sibling {s} {'online' if s in online else 'offline'}" for s in siblings) or "no SMT sibling"
        )
    isolated = " (isolated)" if state.get("isolated") else ""
    turbo_text = {None: "turbo not exposed", True: "turbo on", False: "turbo off"}[turbo]
    return f"CPU {state.get('cpu')}{isolated}: governor {state.get('governor') or 'not exposed'}, {smt}, {turbo_text}"


def state_lines(record: HygieneRecord) -> list[str]:
    """From a 'cpu_hygiene' record (environment.json): the CPUs used and the isolated set, then each lab CPU's state."""
    harness = format_cpuset(tuple(record.get("harness_cpus") or ())) or "not pinned"
    used = (
        f"CPUs: lab on {format_cpuset(tuple(record.get('lab_cpus') or ()))}, harness on {harness}; "
        f"isolated: {_cpus_text(record.get('isolated_cpus'), 'not exposed')}, "
        f"nohz_full: {_cpus_text(record.get('nohz_full_cpus'), 'not exposed')}"
    )
    return [used, *(describe_cpu(state, record.get("turbo")) for state in record.get("cpus") or [])]


def hygiene_lines(record: HygieneRecord) -> list[str]:
    """What the run prints at its start: state_lines(), then 'noise: ' and each finding with its fix."""
    return state_lines(record) + [f"noise: {finding_text(f)}" for f in record.get("findings") or []]
