"""What an experiment file must hold beyond its schema, checked as it loads: ids unique within the file, every benchmark
in a declared group, every claim naming benchmarks, hardware and published figures that exist and agree."""

from __future__ import annotations

import pathlib

from harness.config.experiment.experiment_schema import display
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.experiment import Claim, Experiment, reference_claim
from harness.model.folder.records import COLD, MEASURES, SINGLE_SHOT

#: How far a printed ratio may be from the ratio of the printed means of the same table: BenchmarkDotNet's Ratio column
#: is the mean of a ratio distribution, not the ratio of the means, and differs from it by up to 4.8 % (relative: up to
#: +1.5 % in 000, -3.9 % in 001, -4.8 % to +2.2 % in 002, over the 46 ratios printed beside both means in experiments/;
#: 9 of them beyond the ratio's rounding), so twice that. Beyond it, one of the figures is mistyped.
RATIO_MEANS_TOLERANCE = 0.10


def unique_keys(path: pathlib.Path, kind: str, named_by: str, keys: list[str]) -> None:
    """Two entries with one key would silently replace each other (or collide in the report): refused."""
    seen: set[str] = set()
    for key in keys:
        if key in seen:
            raise ConfigError(
                f"{display(path)}: two {kind} with the same {named_by}: {key}",
                f"give each its own {named_by}, or delete the copy",
            )
        seen.add(key)


def validate_experiment(exp: Experiment) -> None:
    where = f"in {display(exp.path)}"
    if exp.measure not in MEASURES:
        raise UnknownNameError("measure", exp.measure, MEASURES, where)
    for b in exp.benchmarks.values():
        if b.group not in exp.groups:
            raise UnknownNameError("group", b.group, exp.groups, f"(benchmark {b.id}) {where}")
        baseline = exp.benchmarks.get(exp.groups[b.group].baseline)
        if baseline is not None and baseline.lab != b.lab:
            raise ConfigError(
                f"benchmark '{b.id}' (lab {b.lab}) is in group '{b.group}', whose baseline runs in lab {baseline.lab} "
                f"{where}",
                "a ratio pairs processes of one lab build: give each lab its own group (shared_operation sets them "
                "side by side)",
            )
    for g in exp.groups.values():
        if g.baseline not in exp.benchmarks or exp.benchmarks[g.baseline].group != g.id:
            members = [b.id for b in exp.benchmarks.values() if b.group == g.id]
            raise ConfigError(
                f"group '{g.id}' baseline '{g.baseline}' is not a benchmark of that group {where}",
                f"name one of the group's benchmarks as baseline: {', '.join(members) or 'the group has none yet'}",
            )
    for name in exp.runtime_sweep:
        if name not in exp.benchmarks:
            raise UnknownNameError("benchmark", name, exp.benchmarks, f"(runtime_sweep) {where}")
    _no_claim_of_cold_starts(exp, where)
    for c in exp.claims:
        _validate_claim(exp, c, where)


def _no_claim_of_cold_starts(exp: Experiment, where: str) -> None:
    """Cold starts (measure = "cold") are reported in a section of their own, whole-process times with no ratio to a
    published figure: a claim there would be neither judged nor named (coverage would call it "not in this run"), so
    one with a benchmark is refused; a cannot_reproduce one is named with its reason like anywhere else."""
    measured = [c for c in exp.claims if not c.cannot_reproduce]
    if exp.measure == COLD and measured:
        raise ConfigError(
            f'{measured[0].label} {where} is a claim of experiment {exp.id}, whose measure = "{COLD}" judges none '
            f"({len(measured)} such claim(s))",
            "cold starts are reported in their own section and never compared with a published figure: judge a "
            'published first call in an experiment with measure = "single-shot" (a fresh process per timed call, '
            "judged as a ratio; docs/experiments.md), or leave the figures out",
        )


def _validate_claim(exp: Experiment, c: Claim, where: str) -> None:
    """One published figure: its hardware, its benchmark and reference, its numbers and how its ratio is had."""
    if c.hardware not in exp.hardware:
        raise UnknownNameError("hardware key", c.hardware, exp.hardware, f"({c.label}) {where}")
    if c.cannot_reproduce:
        if c.benchmark:
            raise ConfigError(
                f"{c.label} has a benchmark and cannot_reproduce {where}",
                "a figure is either measured by a benchmark or declared impossible to reproduce, with the reason",
            )
        return
    if not c.benchmark:
        raise ConfigError(
            f"{c.label} names no benchmark {where}",
            'set benchmark to the benchmark that re-measures it, or cannot_reproduce = "why" when none can',
        )
    if bool(c.baseline) == bool(c.derived_baseline):
        raise ConfigError(
            f"{c.label} needs exactly one of baseline / derived_baseline {where}",
            "baseline: the write-up printed a ratio (set ratio too); derived_baseline: it printed none "
            "(docs/experiments.md)",
        )
    for name in (c.benchmark, c.reference):
        if name not in exp.benchmarks:
            raise UnknownNameError("benchmark", name, exp.benchmarks, f"({c.label}) {where}")
    if bool(c.at) != bool(c.reference_at):
        raise ConfigError(
            f"{c.label} sets only one of at / reference_at {where}",
            'a ratio across cell dimensions names where each side is read: at = { runtime = "8.0.0" } and '
            'reference_at = { runtime = "3.1.3" }, for example (docs/experiments.md)',
        )
    if c.mean_ns is None and c.ratio is None and c.allocated_bytes is None and c.memory_increase_mib is None:
        raise ConfigError(
            f"{c.label} has no published number {where}",
            "give mean_ns, ratio, allocated_bytes or memory_increase_mib (the figure it stands for)",
        )
    if (c.memory_base_mib is not None or c.memory_increase_mib is not None) and exp.measure != SINGLE_SHOT:
        raise ConfigError(
            f"{c.label} has a published memory figure, but experiment {exp.id} measures {exp.measure} {where}",
            "memory (the resident set before the timed calls and its peak increase during them) is measured by "
            'single-shot cells: set measure = "single-shot", or leave the memory figure out',
        )
    _validate_ratio_source(exp, c, where)
    _ratio_agrees_with_means(exp, c, where)
    _row_statistics_fit(c, where)


def _row_statistics_fit(c: Claim, where: str) -> None:
    """A row's own statistics (published_error_ns … published_median_ns) stand beside its mean and agree with each
    other: the minimum is never above the median, nor the median far from the mean's order of magnitude."""
    printed = {
        name: value
        for name in ("error", "stddev", "min", "median")
        if (value := getattr(c, f"published_{name}_ns")) is not None
    }
    if printed and c.mean_ns is None:
        raise ConfigError(
            f"{c.label} has published_{next(iter(printed))}_ns but no mean_ns {where}",
            "a row's statistics describe its mean: give mean_ns too, or leave them out",
        )
    low, middle = printed.get("min"), printed.get("median")
    if low is not None and middle is not None and low > middle:
        raise ConfigError(
            f"{c.label} has published_min_ns {low} above published_median_ns {middle} {where}",
            "copy Min and Median from the same row of the published table (both in ns)",
        )
    for name in ("min", "median"):
        value = printed.get(name)
        if value is not None and c.mean_ns and not c.mean_ns / 10 <= value <= c.mean_ns * 10:
            raise ConfigError(
                f"{c.label} has published_{name}_ns {value}, not within a factor of 10 of its mean_ns {c.mean_ns} "
                f"{where}",
                "convert it to nanoseconds as the mean was (1 µs = 1000 ns)",
            )


def _validate_ratio_source(exp: Experiment, c: Claim, where: str) -> None:
    """How the claim's ratio is had: printed (baseline, with ratio) or derived from the published means
    (derived_baseline, without ratio, and a claim of the reference with mean_ns in the same scenario)."""
    if c.baseline and c.ratio is None:
        raise ConfigError(
            f"{c.label} names baseline '{c.baseline}' but no ratio {where}",
            "baseline means the write-up printed a ratio: set ratio; when it printed none, use derived_baseline",
        )
    if c.baseline and c.benchmark == c.reference and c.at == c.reference_at and c.ratio != 1.0:
        raise ConfigError(
            f"{c.label} is the baseline row of its table ({c.benchmark} against itself) with ratio {c.ratio} {where}",
            "a baseline's ratio is 1 by definition and never judged: write ratio = 1.0 (BenchmarkDotNet's Ratio is a "
            "mean of ratios and can print 1.01 or more for a noisy baseline); a ratio to another row names that row "
            "as baseline",
        )
    if c.derived_baseline and c.ratio is not None:
        raise ConfigError(
            f"{c.label} has a ratio ({c.ratio}) and derived_baseline {where}",
            "a printed ratio goes with baseline; derived_baseline derives the ratio from the published means instead",
        )
    if (
        c.derived_baseline
        and c.mean_ns is not None
        and not (c.benchmark == c.reference and c.at == c.reference_at)  # not the reference row itself
        and reference_claim(c, exp.claims, "mean_ns") is None
    ):
        raise ConfigError(
            f"{c.label} has mean_ns and derived_baseline '{c.derived_baseline}', but no claim of "
            f"'{c.derived_baseline}' "
            f"in the same scenario has mean_ns {where}, so no ratio can be derived",
            f"add the reference's published row as a claim with scenario '{c.scenario}', or use baseline with the "
            "printed ratio",
        )


def _ratio_agrees_with_means(exp: Experiment, c: Claim, where: str) -> None:
    """A printed ratio beside a printed mean whose reference row has one too: the two must agree within
    RATIO_MEANS_TOLERANCE."""
    if c.ratio is None or c.mean_ns is None or not c.baseline:
        return
    reference = reference_claim(c, exp.claims, "mean_ns")
    if reference is None or reference.mean_ns is None or reference is c:
        return
    implied = c.mean_ns / reference.mean_ns
    if abs(c.ratio / implied - 1) > RATIO_MEANS_TOLERANCE:
        raise ConfigError(
            f"{c.label} has ratio {c.ratio}, but its mean_ns {c.mean_ns} over the mean_ns {reference.mean_ns} of "
            f"'{reference.published_variant}' is {implied:.3g}, {abs(c.ratio / implied - 1):.0%} apart {where}",
            f"a printed ratio and the printed means agree within {RATIO_MEANS_TOLERANCE:.0%} (BenchmarkDotNet's Ratio "
            "is a mean of ratios): one of the three figures is mistyped; copy them again from the write-up",
        )
