"""Published claims against fresh measurements: one verdict per claim, metric and ISA level.

Absolute times differ across machines, so what is compared is each claim's ratio to its
baseline: published (printed, or derived from the published means of the same table) against
measured at the same ISA level, with the measured ratio's 99% interval from paired replicates.
The verdict uses the interval, not the point (harness/model/judging.py): reproduced when all of it lies within the
tolerance band around the published ratio, inconclusive when it straddles the band's edge. A comparison
whose variant or baseline failed verification is void. How a run accounts for every figure is coverage.py.

Allocations are deterministic per operation, so a published Allocated figure is also judged in bytes,
beside its ratio verdict: equal, within the tolerance the experiment states, or different. A figure
with no allocation ratio (its table's baseline, or a reference that published none) gets the byte
verdict alone.
"""

from __future__ import annotations

import math
import pathlib
from dataclasses import asdict, replace

import pandas as pd

from analysis.compute.aggregate import RatioBook
from analysis.compute.verdicts.arch_check import with_arch_check
from analysis.compute.verdicts.claim_verdict import claim_verdict, with_failure
from analysis.compute.verdicts.explained_by import with_explanations
from analysis.compute.verdicts.verdict_row import Verdict
from harness.config.lab.labs import LabSpec, load_labs
from harness.model.defaults import LABS_DIR
from harness.model.experiment import Claim, Experiment, Hardware
from harness.model.folder.records import DEFAULT_RUNTIME, MEASURED, UNAVAILABLE, RowStatus
from harness.model.judging import CANNOT_REPRODUCE, INTERVAL_METRICS, METRICS, NOT_MEASURED, published_ratio


def _compared_levels(measured: pd.DataFrame, wanted: str) -> tuple[list[str], str]:
    """Levels to judge at, and a note when the hardware's level could not be used."""
    levels = measured["isa_requested"].unique().tolist()
    if wanted in levels:
        return levels, ""
    return levels, f"read at native: {wanted} not measured separately in this run"


def across_labs(experiment: Experiment, claim: Claim) -> bool:
    """True for a claim whose benchmark and reference run in different labs (Node's JSON.parse over
    System.Text.Json): its ratio pairs the two labs' processes of each round."""
    sides = [experiment.benchmarks.get(b) for b in (claim.benchmark, claim.reference)]
    return all(sides) and sides[0].lab != sides[1].lab  # type: ignore[union-attr]


def primary_runtime(hardware: Hardware, runtimes: list[str]) -> str:
    """The runtime a figure's primary verdict is read on: the first of its hardware's stand-ins that was measured, else
    the lab's only (or first planned) runtime."""
    return hardware.stand_in(runtimes, runtimes[0] if runtimes else DEFAULT_RUNTIME)


def verdicts_for(experiment: Experiment, cells: pd.DataFrame, book: RatioBook) -> list[Verdict]:
    """Every verdict of one experiment; `cells` is the with_ratios() frame, `book` the run's replicates."""
    planned = cells[cells["experiment"] == experiment.id]
    # Emulated cells are functional checks only: never judged on time.
    rows = planned[planned["status"].isin(MEASURED) & ~planned["emulated"].fillna(False).astype(bool)]
    failed = planned[(planned["status"] == RowStatus.FAILED) | planned["error"].fillna("").str.startswith(UNAVAILABLE)]
    out: list[Verdict] = []
    for claim in experiment.claims:
        if claim.cannot_reproduce:
            out.append(_cannot_reproduce(experiment, claim))
            continue
        if claim.across or across_labs(experiment, claim):
            if claim.benchmark in set(planned["benchmark"]):
                out += _across(experiment, claim, planned, rows, failed, book)
            continue
        if claim.benchmark not in set(planned["benchmark"]):
            continue  # a benchmark this run did not plan
        if claim.benchmark == claim.reference and claim.allocated_bytes is None:
            continue  # the baseline itself (ratio 1 by definition), with no allocation to judge in bytes
        hardware = experiment.hardware[claim.hardware]
        ran = rows[rows["benchmark"] == claim.benchmark]
        seen = ran if not ran.empty else failed[failed["benchmark"] == claim.benchmark]
        levels, note = _compared_levels(seen, hardware.isa_level)
        primary_level = hardware.isa_level if not note else "native"
        runtimes = list(dict.fromkeys(planned.loc[planned["benchmark"] == claim.benchmark, "runtime_requested"]))
        primary = primary_runtime(hardware, runtimes)
        for metric in METRICS:
            published = (
                published_ratio(claim, experiment.claims, metric) if claim.benchmark != claim.reference else None
            )
            if published is None and metric == "allocated" and claim.allocated_bytes is not None:
                published = (
                    math.nan,
                    "none: the table's baseline"
                    if claim.benchmark == claim.reference
                    else "none: its reference published no allocation",
                )
            if published is None:
                continue
            for runtime in runtimes or [primary]:
                for level in levels or [primary_level]:
                    verdict = claim_verdict(
                        experiment,
                        claim,
                        metric,
                        published,
                        rows,
                        book,
                        level,
                        level == primary_level and runtime == primary,
                        note,
                        runtime=runtime,
                    )
                    out.append(with_failure(verdict, failed, level, runtime=runtime, measured=rows))
    return out


def _cannot_reproduce(experiment: Experiment, claim: Claim) -> Verdict:
    """A published figure the lab declares impossible to re-measure, with the reason, as a row of the table."""
    hardware = experiment.hardware[claim.hardware]
    published = published_ratio(claim, experiment.claims, "time") or (float("nan"), "—")
    return Verdict(
        experiment=experiment.id,
        scenario=claim.scenario,
        published_variant=claim.published_variant,
        benchmark="",
        reference="",
        metric="time",
        published_value=claim.mean_ns,
        published_ratio=round(published[0], 4),
        ratio_source=published[1],
        published_hardware=hardware.description,
        published_runtime=hardware.runtime,
        isa_level="—",
        runtime="—",
        primary=True,
        measured_ratio=None,
        measured_ratio_lower=None,
        measured_ratio_upper=None,
        pairs=None,
        measured_runtime=None,
        variant_verification=None,
        baseline_verification=None,
        verdict=f"{CANNOT_REPRODUCE}: {claim.cannot_reproduce}",
        note=claim.note,
    )


def _across(
    experiment: Experiment,
    claim: Claim,
    planned: pd.DataFrame,
    rows: pd.DataFrame,
    failed: pd.DataFrame,
    book: RatioBook,
) -> list[Verdict]:
    """A before/after claim re-measured across cell dimensions: the benchmark at `at` over the reference at
    `reference_at` (an ISA level, a runtime), each dimension it leaves out read where the claim's hardware is (time
    only: allocations do not depend on the ISA, and are judged per runtime by the claims of each runtime)."""
    if claim.is_before_row:
        return []  # the 'before' row itself
    metrics = [(m, p) for m in INTERVAL_METRICS if (p := published_ratio(claim, experiment.claims, m)) is not None]
    if not metrics:
        return []
    hardware = experiment.hardware[claim.hardware]
    runtime = claim.side("runtime", primary_runtime(hardware, _runtimes_of(planned, claim.benchmark)))
    level = claim.side("isa_level", hardware.isa_level)
    reference_level = claim.reference_side("isa_level", hardware.isa_level)
    reference_runtime, note = _across_reference(experiment, claim, planned, level, runtime, reference_level)
    verdicts = [
        claim_verdict(
            experiment,
            claim,
            metric,
            published,
            rows,
            book,
            level,
            True,
            note,
            reference_level,
            runtime,
            reference_runtime,
        )
        for metric, published in metrics
    ]
    return [with_failure(v, failed, level, reference_level, runtime, reference_runtime, rows) for v in verdicts]


def _runtimes_of(planned: pd.DataFrame, benchmark: str) -> list[str]:
    """The runtimes the run planned `benchmark` on, in plan order."""
    return list(dict.fromkeys(planned.loc[planned["benchmark"] == benchmark, "runtime_requested"]))


def _across_reference(
    experiment: Experiment, claim: Claim, planned: pd.DataFrame, level: str, runtime: str, reference_level: str
) -> tuple[str, str]:
    """The runtime an across claim's reference is read on, and the note saying where each side was measured."""
    hardware = experiment.hardware[claim.hardware]
    if across_labs(experiment, claim):  # the reference runs on a runtime of its own lab
        reference_runtime = dict(claim.reference_at).get(
            "runtime", primary_runtime(hardware, _runtimes_of(planned, claim.reference))
        )
        labs = [experiment.benchmarks[b].lab for b in (claim.benchmark, claim.reference)]
        note = (
            f"across labs: {claim.benchmark} ({labs[0]}) at {level} on {runtime} over {claim.reference} ({labs[1]}) "
            f"at {reference_level} on {reference_runtime}, the processes of each round paired (never one process: "
            "a wider interval than a ratio within one lab)"
        )
    else:
        reference_runtime = claim.reference_side("runtime", runtime)
        reference_places = [
            f"{word} {side}"
            for word, side, mine in (("at", reference_level, level), ("on", reference_runtime, runtime))
            if side != mine
        ]
        note = (
            f"measured as {claim.benchmark} at {level} on {runtime} over {claim.reference} "
            f"{' '.join(reference_places)}"
        )
    return reference_runtime, note


def verdict_table(
    experiments: list[Experiment], cells: pd.DataFrame, rows: pd.DataFrame, labs_dir: pathlib.Path = LABS_DIR
) -> pd.DataFrame:
    """All verdicts as a tidy DataFrame (`cells`: with_ratios(); `rows`: the run's replicate rows; `labs_dir`: the
    labs as the run had them, for the vendor-terms notes)."""
    book = RatioBook(rows)
    labs = load_labs(labs_dir, accepted=frozenset())  # every lab's packages under vendor terms, accepted here or not
    verdicts = [asdict(with_terms_note(v, exp, labs)) for exp in experiments for v in verdicts_for(exp, cells, book)]
    table = pd.DataFrame(verdicts, columns=[f for f in Verdict.__dataclass_fields__])
    return with_explanations(with_arch_check(table, experiments, rows))


def with_terms_note(verdict: Verdict, experiment: Experiment, labs: dict[str, LabSpec]) -> Verdict:
    """A figure measured with a package under its vendor's terms (the user accepted them: harness/config/
    vendor_terms.py) says so in its note; one not measured for that reason says it in its verdict already."""
    if verdict.verdict.startswith((UNAVAILABLE, NOT_MEASURED)):
        return verdict
    notes = []
    for benchmark in dict.fromkeys((verdict.benchmark, verdict.reference)):
        bench = experiment.benchmarks.get(benchmark)
        lab = labs.get(bench.lab) if bench else None
        package = lab.vendor_package_of(bench.variant) if lab and bench else None
        if package is not None and package.accepted_note() not in notes:
            notes.append(package.accepted_note())
    return replace(verdict, note="; ".join(filter(None, [verdict.note, *notes]))) if notes else verdict
