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
from dataclasses import asdict, replace

import pandas as pd

from analysis.compute.aggregate import RatioBook
from analysis.compute.replicates import MEASURED
from analysis.render.tables import failure_reason
from analysis.compute.judging import BYTES_ONLY, CANNOT_REPRODUCE, Verdict, judge_bytes
from harness.model.judging import INTERVAL_METRICS, METRICS, NOT_MEASURED, judge, published_ratio
from harness.config.experiments import Claim, Experiment, Hardware
from harness.config.labs import LabSpec, load_labs
from harness.model.records import DEFAULT_RUNTIME, RowStatus, UNAVAILABLE, VerificationStatus


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
                    verdict = _verdict(
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
                    out.append(_with_failure(verdict, failed, level, runtime=runtime, measured=rows))
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

    def runtimes_of(benchmark: str) -> list[str]:
        return list(dict.fromkeys(planned.loc[planned["benchmark"] == benchmark, "runtime_requested"]))

    runtime = claim.side("runtime", primary_runtime(hardware, runtimes_of(claim.benchmark)))
    level = claim.side("isa_level", hardware.isa_level)
    reference_level = claim.reference_side("isa_level", hardware.isa_level)
    if across_labs(experiment, claim):  # the reference runs on a runtime of its own lab
        reference_runtime = dict(claim.reference_at).get(
            "runtime", primary_runtime(hardware, runtimes_of(claim.reference))
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
    verdicts = [
        _verdict(
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
    return [_with_failure(v, failed, level, reference_level, runtime, reference_runtime, rows) for v in verdicts]


def _with_failure(
    verdict: Verdict,
    failed: pd.DataFrame,
    level: str,
    reference_level: str | None = None,
    runtime: str = DEFAULT_RUNTIME,
    reference_runtime: str | None = None,
    measured: pd.DataFrame | None = None,
) -> Verdict:
    """A claim whose benchmark or baseline failed at its level and runtime says why, instead of 'not measured'; one
    with no failure says which side has no measured process there ('not measured: …')."""
    if verdict.verdict != NOT_MEASURED:
        return verdict
    sides = (
        (verdict.benchmark, level, runtime),
        (verdict.reference, reference_level or level, reference_runtime or runtime),
    )
    for benchmark, at, on in sides:
        hit = failed[
            (failed["benchmark"] == benchmark) & (failed["isa_requested"] == at) & (failed["runtime_requested"] == on)
        ]
        if not hit.empty:
            who = "" if benchmark == verdict.benchmark else f"baseline {benchmark} "
            error = str(hit.iloc[0]["error"])
            what = failure_reason(error) if error.startswith(UNAVAILABLE) else f"failed: {failure_reason(error)}"
            return replace(verdict, verdict=f"{who}{what}")
    if measured is None:
        return verdict
    for benchmark, at, on in sides:
        hit = measured[
            (measured["benchmark"] == benchmark)
            & (measured["isa_requested"] == at)
            & (measured["runtime_requested"] == on)
        ]
        if hit.empty:
            who = "" if benchmark == verdict.benchmark else "its baseline "
            return replace(
                verdict, verdict=f"{NOT_MEASURED}: this run measured {who}{benchmark} at {at} on {on} in no process"
            )
    return replace(verdict, verdict=f"{NOT_MEASURED}: no process pairs both sides")


def _verdict(
    experiment: Experiment,
    claim: Claim,
    metric: str,
    published: tuple[float, str],
    measured: pd.DataFrame,
    book: RatioBook,
    level: str,
    primary: bool,
    note: str,
    reference_level: str | None = None,
    runtime: str = DEFAULT_RUNTIME,
    reference_runtime: str | None = None,
) -> Verdict:
    """The claim's benchmark at `level` on `runtime` against its reference at `reference_level` on
    `reference_runtime` (default: the same level and runtime)."""
    hardware = experiment.hardware[claim.hardware]
    column = METRICS[metric][1]
    reference_level = reference_level or level
    reference_runtime = reference_runtime or runtime

    def at(benchmark: str, isa_level: str, on: str):
        found = measured[
            (measured["benchmark"] == benchmark)
            & (measured["isa_requested"] == isa_level)
            & (measured["runtime_requested"] == on)
        ]
        return None if found.empty else found.iloc[0]

    row, ref = at(claim.benchmark, level, runtime), at(claim.reference, reference_level, reference_runtime)
    ratio = lower = upper = pairs = None
    bytes_only = metric == "allocated" and math.isnan(published[0])
    if row is not None and ref is not None:
        if metric in INTERVAL_METRICS:
            interval = book.interval(
                experiment.id,
                claim.benchmark,
                claim.reference,
                level,
                reference_level,
                runtime,
                reference_runtime,
                metric,
            )
            if interval is not None:
                ratio, lower, upper, pairs = interval.estimate, interval.lower, interval.upper, interval.n
        elif not bytes_only and not pd.isna(row[column]) and not pd.isna(ref[column]) and ref[column] != 0:
            ratio = float(row[column] / ref[column])
    void = any(r is not None and r["verification_status"] == VerificationStatus.FAILED for r in (row, ref))
    if metric == "memory":  # the benchmark's own mean increase over its processes, in bytes
        measured_bytes = None if row is None else book.mean(experiment.id, claim.benchmark, level, runtime, metric)
    else:
        measured_bytes = None if metric != "allocated" or row is None or pd.isna(row[column]) else float(row[column])
    tolerance = experiment.allocation_tolerance(claim) if metric == "allocated" else None
    return Verdict(
        experiment=experiment.id,
        scenario=claim.scenario,
        published_variant=claim.published_variant,
        benchmark=claim.benchmark,
        reference=claim.reference,
        metric=metric,
        published_value=getattr(claim, METRICS[metric][0]),
        published_ratio=round(published[0], 4),
        ratio_source=published[1],
        published_hardware=hardware.description,
        published_runtime=hardware.runtime,
        isa_level=level if reference_level == level else f"{level}/{reference_level}",
        runtime=runtime if reference_runtime == runtime else f"{runtime}/{reference_runtime}",
        primary=primary,
        measured_ratio=ratio,
        measured_ratio_lower=lower,
        measured_ratio_upper=upper,
        pairs=pairs,
        measured_runtime=None if row is None else f"{row['runtime']} {row['runtime_version']}",
        variant_verification=None if row is None else row["verification_status"],
        baseline_verification=None if ref is None else ref["verification_status"],
        verdict=(BYTES_ONLY if row is not None else NOT_MEASURED)
        if bytes_only
        else judge(published[0], ratio, void, lower, upper, interval=metric in INTERVAL_METRICS),
        note="; ".join(n for n in (claim.note, note) if n),
        measured_value=measured_bytes,
        allocated_tolerance_bytes=tolerance,
        bytes_verdict=judge_bytes(
            claim.allocated_bytes,
            measured_bytes,
            tolerance,
            row is not None and row["verification_status"] == VerificationStatus.FAILED,
        )
        if metric == "allocated"
        else None,
    )


def verdict_table(experiments: list[Experiment], cells: pd.DataFrame, rows: pd.DataFrame) -> pd.DataFrame:
    """All verdicts as a tidy DataFrame (`cells`: with_ratios(); `rows`: the run's replicate rows)."""
    book = RatioBook(rows)
    labs = load_labs(accepted=frozenset())  # every lab's packages under vendor terms, accepted here or not
    verdicts = [asdict(with_terms_note(v, exp, labs)) for exp in experiments for v in verdicts_for(exp, cells, book)]
    return pd.DataFrame(verdicts, columns=[f for f in Verdict.__dataclass_fields__])


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
