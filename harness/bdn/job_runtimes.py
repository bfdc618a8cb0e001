"""One benchmark published on several runtimes (several reports of one class, or a Runtime column): the import makes it
one benchmark of the lab, in one group, and adds its claims across runtimes, the before/after table of
docs/experiments.md: a scenario "<table>: <method> across runtimes" whose reference is the oldest runtime's row (`at` =
`reference_at` = its stand-in) and whose other rows are read at their own stand-in over it. A chain of three runtimes is
one scenario with two ratios, both to the oldest. Rows are merged only where each runtime has one row of the method at
one place (architecture, ISA level, toolchain: an Arm64 job beside an x64 one is no comparison of runtimes; the scenario
of a figure merged at several places names its place), and a scenario group only where all its rows merge: two tables of
one class name on one runtime stay two benchmarks (they may measure different things). Jobs the lab does not serve take
no part."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from harness.bdn.grouping import ImportedGroup, Importer
from harness.bdn.jobs import OWN_PROCESS
from harness.bdn.machines import ImportedHardware
from harness.bdn.report_tables import Row, Table

#: A figure's key across runtimes: the report's class name (without the import's numbering), method, parameter values,
# and the place its job ran at (ImportedHardware.place).
Key = tuple[str, str, tuple[str, ...], tuple[str | None, ...]]


def base_name(table: Table) -> str:
    """The class name without the " (2)" the import adds to a later report of the same class."""
    return re.sub(r" \(\d+\)$", "", table.name)


def scenario_of(group: ImportedGroup, shared: SharedIds) -> str:
    """A merged figure's table on one runtime is named by its runtime, not by the import's numbering of its report."""
    if key_of(group, group.rows[0]) not in shared.merged:
        return group.scenario
    params = ", ".join(f"{k}={v}" for k, v in group.rows[0].params.items())
    category = f": {group.rows[0].category}" if group.rows[0].category else ""
    place = shared.place_label.get(key_of(group, group.rows[0]), "")
    return f"{base_name(group.table)}{category}{f' ({params})' if params else ''} on {group.hardware.runtime}{place}"


def key_of(group: ImportedGroup, row: Row) -> Key:
    return (base_name(group.table), row.method, tuple(row.params.values()), group.hardware.place)


def version_of(runtime: str) -> tuple[int, ...]:
    """'.NET 8.0.22' → (8, 0, 22); '.NET Core 3.1.3' → (3, 1, 3): the order of runtimes in a chain."""
    return tuple(int(n) for n in re.findall(r"\d+", runtime.split("(")[0])[:3])


@dataclass
class SharedIds:
    """Benchmark ids by row, the lab groups to write and each scenario group's lab group."""

    bench: dict[tuple[int, int], str] = field(default_factory=dict)  # (id(table), row.line) -> benchmark id
    lab_group: dict[str, str] = field(default_factory=dict)  # scenario group id -> the lab group its benchmarks are in
    merged: set[Key] = field(default_factory=set)
    place_label: dict[Key, str] = field(default_factory=dict)  # ' (arm64, native)' where a figure merged at two places


def share(groups: list[ImportedGroup], importer: Importer) -> SharedIds:
    """Benchmark ids shared across runtimes where every runtime has one row of the figure, groups merged with them."""
    rows: dict[Key, list[tuple[ImportedGroup, Row]]] = {}
    for g in groups:
        for row in g.rows:
            rows.setdefault(key_of(g, row), []).append((g, row))
    mergeable = {
        k for k, found in rows.items() if len(found) > 1 and len({g.hardware.runtime for g, _ in found}) == len(found)
    }
    changed = True
    while changed:  # a scenario group merges whole or not at all
        changed = False
        for g in groups:
            keys = {key_of(g, row) for row in g.rows}
            if keys & mergeable and not keys <= mergeable:
                mergeable -= keys
                changed = True
    shared = SharedIds(merged=mergeable)
    for k in mergeable:
        if sum(1 for other in mergeable if other[:3] == k[:3]) > 1:
            shared.place_label[k] = f" ({', '.join(str(p) for p in k[3] if p and p != OWN_PROCESS)})"
    first_group: dict[Key, str] = {}
    for g in groups:
        for row in g.rows:
            k = key_of(g, row)
            if k in mergeable and k in first_group:
                shared.bench[(id(g.table), row.line)] = shared.bench[(id(rows[k][0][0].table), rows[k][0][1].line)]
            else:
                shared.bench[(id(g.table), row.line)] = importer.bench_id(g.table, row)
                first_group[k] = g.id
        shared.lab_group[g.id] = first_group[key_of(g, g.rows[0])]
    return shared


@dataclass
class RuntimeClaim:
    """One row of a claim across runtimes, as the experiment file writes it."""

    scenario: str
    published_variant: str
    published_baseline: str
    benchmark: str
    at: str  # the lab runtime this row is read at
    reference_at: str
    row: Row
    hardware: ImportedHardware
    note: str = ""


def runtime_claims(groups: list[ImportedGroup], shared: SharedIds) -> list[RuntimeClaim]:
    """The claims across runtimes of every merged figure with a published mean, oldest runtime first."""
    rows: dict[Key, list[tuple[ImportedGroup, Row]]] = {}
    for g in groups:
        for row in g.rows:
            if key_of(g, row) in shared.merged and row.mean_ns is not None:
                rows.setdefault(key_of(g, row), []).append((g, row))
    claims: list[RuntimeClaim] = []
    for key, found in rows.items():
        if len(found) < 2:
            continue
        table, method = key[0], key[1]
        found.sort(key=lambda pair: version_of(pair[0].hardware.runtime))
        (ref_group, _), params = found[0], ", ".join(f"{k}={v}" for k, v in found[0][1].params.items())
        scenario = (
            f"{table}{f' ({params})' if params else ''}: {method} across runtimes{shared.place_label.get(key, '')}"
        )
        reference = ref_group.hardware.lab_runtimes[0]
        for g, row in found:
            here = g.hardware.lab_runtimes[0]
            note = ""
            if g is not ref_group and here == reference:
                note = f"{g.hardware.runtime} and {ref_group.hardware.runtime} have one stand-in here ({here}): an A/A"
            elif g.hardware.machine != ref_group.hardware.machine:
                note = (
                    "the two published rows come from two machines: the ratio mixes their difference with the runtimes'"
                )
            bench = shared.bench[(id(g.table), row.line)]
            claims.append(
                RuntimeClaim(
                    scenario,
                    f"{method} on {g.hardware.runtime}",
                    f"{method} on {ref_group.hardware.runtime}",
                    bench,
                    here,
                    reference,
                    row,
                    g.hardware,
                    note,
                )
            )
    return claims


def runtime_claim(claim: RuntimeClaim) -> dict:
    """A claim across runtimes as a claim's fields: the reference row (`at` = `reference_at`) has no ratio of its own;
    each other row's mean over the reference's gives the published ratio."""
    fields = {
        "scenario": claim.scenario,
        "published_variant": claim.published_variant,
        "published_baseline": claim.published_baseline,
        "benchmark": claim.benchmark,
        "derived_baseline": claim.benchmark,
        "at": {"runtime": claim.at},
        "reference_at": {"runtime": claim.reference_at},
        "mean_ns": float(claim.row.mean_ns or 0.0),
        "published_mean": claim.row.mean_text,
        "hardware": claim.hardware.key,
    }
    return fields | ({"note": claim.note} if claim.note else {})
