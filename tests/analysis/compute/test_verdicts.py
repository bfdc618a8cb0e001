import dataclasses
from dataclasses import asdict

import pandas as pd
import pytest

from analysis.compute.aggregate import RatioBook
from analysis.compute.verdicts.coverage import coverage
from analysis.compute.verdicts.verdicts import verdict_table, verdicts_for
from harness.config.experiment.experiment_checks import check_experiment, load_context
from harness.config.experiment.experiments import load_experiments
from harness.model.judging import (
    BYTES_ONLY,
    INCONCLUSIVE,
    NOT_REPRODUCED,
    REPRODUCED,
    SAME_DIRECTION,
    VOID,
    judge,
    published_ratio,
)
from tests.conftest import FIXTURES


@pytest.mark.parametrize(
    "published, measured, lower, upper, void, expected",
    [
        (0.51, 0.55, 0.53, 0.57, False, REPRODUCED),  # the whole interval inside ±15% of 0.51
        (0.51, 0.55, 0.45, 0.66, False, INCONCLUSIVE),  # straddles the band's upper edge (0.5865)
        (0.51, 0.30, 0.28, 0.32, False, SAME_DIRECTION),
        (0.86, 1.40, 1.30, 1.50, False, NOT_REPRODUCED),
        (0.51, 0.90, 0.80, 1.10, False, NOT_REPRODUCED),  # outside the band and not clearly below 1
        (1.02, 0.99, 0.97, 1.01, False, REPRODUCED),
        (0.51, 0.52, None, None, False, INCONCLUSIVE),  # one replicate: no interval, no verdict
        (0.29, 0.12, 0.10, 0.14, True, VOID),
    ],
)
def test_judge_uses_the_interval(published, measured, lower, upper, void, expected):
    assert judge(published, measured, void, lower, upper) == expected


def test_allocations_are_judged_as_points():
    assert judge(0.07, 0.075, False, interval=False) == REPRODUCED


def test_a_ratio_is_derived_from_published_means_when_none_was_printed():
    claims = load_experiments()["000"].claims
    camel = next(
        c
        for c in claims
        if c.scenario.endswith("(blog table 1)") and c.published_variant == "SystemTextCaseInsensitive_Camel"
    )
    ratio, source = published_ratio(camel, claims, "time")
    assert ratio == pytest.approx(2548 / 1511)
    assert source == "derived from published means"
    assert published_ratio(camel, claims, "allocated") is None


def test_printed_ratios_are_used_as_published():
    claims = load_experiments()["001"].claims
    per_call = next(c for c in claims if c.benchmark == "file-stj-case-insensitive-options-per-call")
    assert published_ratio(per_call, claims, "time") == (0.83, "published")
    assert published_ratio(per_call, claims, "allocated")[0] == pytest.approx(522772 / 771748)


def test_a_ratio_only_claim_is_judged(fake_cells, fake_rows):
    """Finding 3 of issue 44: a printed ratio with no mean beside it (valid, as docs/experiments.md says) was never
    judged, and coverage called the measured benchmark 'not in this run'."""
    experiment = load_experiments()["001"]
    claims = tuple(
        dataclasses.replace(c, mean_ns=None, published_mean=None)
        if c.benchmark == "file-stj-case-insensitive-options-per-call"
        else c
        for c in experiment.claims
    )
    ratio_only = next(c for c in claims if c.benchmark == "file-stj-case-insensitive-options-per-call")
    assert ratio_only.ratio is not None and published_ratio(ratio_only, claims, "time") == (
        ratio_only.ratio,
        "published",
    )
    verdicts = verdict_table([dataclasses.replace(experiment, claims=claims)], fake_cells, fake_rows)
    judged = verdicts[
        (verdicts["benchmark"] == "file-stj-case-insensitive-options-per-call") & (verdicts["metric"] == "time")
    ]
    assert not judged.empty and judged["measured_ratio"].notna().all()
    assert not judged["verdict"].str.startswith("not measured").any()


def test_claims_on_unverified_variants_are_void_and_others_judged_at_the_matching_level(fake_cells, fake_rows):
    experiments = [e for e in load_experiments().values() if e.id in ("000", "001")]
    verdicts = verdict_table(experiments, fake_cells, fake_rows)
    primary = verdicts[verdicts["primary"]]
    assert set(primary["isa_level"]) == {"no-avx512"}
    void = primary[
        primary["benchmark"].isin(["SystemTextCaseSensitive_Camel", "single-stj-default", "file-stj-default"])
    ]
    assert not void.empty and (void["verdict"] == VOID).all()
    annotated = primary[
        (primary["benchmark"] == "SystemTextCaseSensitive_Annotated") & (primary["metric"] == "time")
    ].iloc[0]
    assert annotated["measured_ratio"] == pytest.approx(0.5, rel=0.03)
    assert annotated["measured_ratio_lower"] < annotated["measured_ratio"] < annotated["measured_ratio_upper"]
    assert annotated["verdict"] == REPRODUCED  # published 0.54: band 0.46–0.62
    itself = verdicts[
        (verdicts["benchmark"] == verdicts["reference"]) & ~verdicts["runtime"].str.contains("/")
    ]  # a table's baseline: its Allocated figure, judged in bytes only (not a claim across runtimes)
    assert (
        (itself["verdict"] == BYTES_ONLY).all()
        and (itself["metric"] == "allocated").all()
        and itself["bytes_verdict"].notna().all()
    )


def test_a_verdict_against_a_derived_reference_uses_that_reference_not_the_group_baseline(fake_cells, fake_rows):
    verdicts = verdict_table([load_experiments()["000"]], fake_cells, fake_rows)
    row = verdicts[
        (verdicts["scenario"].str.endswith("(blog table 1)"))
        & (verdicts["benchmark"] == "SystemTextCaseInsensitive_Camel")
        & verdicts["primary"]
    ].iloc[0]
    assert row["reference"] == "SystemTextCaseSensitive_Pascal"
    assert row["measured_ratio"] == pytest.approx(2.0, rel=0.03)  # 1× over stj-default's 0.5×
    assert isinstance(verdicts, pd.DataFrame)


def _rows_002(values: dict[str, list[float]]) -> pd.DataFrame:
    """Measured rows of write-up 002's LoginViewModel cell at the given levels, one per round."""
    rows = []
    for level, medians in values.items():
        for i, median in enumerate(medians, 1):
            rows.append(
                {
                    "experiment": "002",
                    "benchmark": "serialize-LoginViewModel",
                    "isa_requested": level,
                    "runtime_requested": "default",
                    "status": "ok",
                    "partner": None,
                    "round_index": i,
                    "median_ns": median,
                    "verification_status": "passed",
                    "runtime": ".NET",
                    "runtime_version": "10.0.12",
                    "emulated": False,
                    "error": None,
                }
            )
    return pd.DataFrame(rows)


def test_a_before_after_claim_is_judged_as_one_benchmark_across_two_isa_levels():
    exp = load_experiments()["002"]
    rows = _rows_002({"sse2": [400, 404, 396, 402], "scalar": [500, 505, 495, 500]})
    verdicts = pd.DataFrame([asdict(v) for v in verdicts_for(exp, rows, RatioBook(rows))])
    after = verdicts[
        (verdicts["scenario"] == "WriteJson<LoginViewModel>.SerializeToString")
        & (verdicts["published_variant"] == "after")
    ].iloc[0]
    assert after["isa_level"] == "sse2/scalar"
    assert after["measured_ratio"] == pytest.approx(0.8, rel=0.01)
    assert after["published_ratio"] == pytest.approx(510.6 / 631.8, rel=1e-3)
    assert after["verdict"] == "reproduced"
    assert not (
        (verdicts["scenario"] == "WriteJson<LoginViewModel>.SerializeToString")
        & (verdicts["published_variant"] == "before")
    ).any()


def test_figures_that_cannot_be_reproduced_are_rows_with_their_reason_and_every_figure_is_accounted_for():
    exp = load_experiments()["002"]
    rows = _rows_002({"sse2": [400, 404], "scalar": [500, 505]})
    verdicts = pd.DataFrame([asdict(v) for v in verdicts_for(exp, rows, RatioBook(rows))])
    nuget = verdicts[verdicts["scenario"].str.startswith("Test_SerializingNuget")]
    assert (
        len(nuget) == 2
        and nuget["verdict"].str.startswith("cannot reproduce: its input, the NuGet search results").all()
    )
    cov = coverage([exp], rows.assign(dataset="x"), verdicts)
    assert len(cov) == 70
    counts = cov["status"].value_counts().to_dict()
    assert counts["cannot reproduce"] == 8 and counts["compared"] == 1 and counts["baseline, measured"] == 1
    assert counts["not in this run"] == 60  # the escaping micro-benchmark and the other three models had no rows


def _rows_000(values: dict[str, dict[str, list[float]]]) -> pd.DataFrame:
    """Measured rows of write-up 000's cells at no-avx512: {runtime: {benchmark: [median per round]}}."""
    rows = []
    for runtime, benchmarks in values.items():
        for benchmark, medians in benchmarks.items():
            for i, median in enumerate(medians, 1):
                rows.append(
                    {
                        **_rows_002({"no-avx512": [median]}).iloc[0].to_dict(),
                        "experiment": "000",
                        "benchmark": benchmark,
                        "runtime_requested": runtime,
                        "runtime_version": runtime,
                        "round_index": i,
                        "allocated_bytes_per_op": None,
                    }
                )
    return pd.DataFrame(rows)


def test_a_before_after_claim_across_runtimes_is_judged_as_one_benchmark_on_two_runtimes():
    exp = load_experiments()["000"]
    camel = "SystemTextCaseInsensitive_Camel"
    newtonsoft = "NewtonSoftJson_Camel"
    rows = _rows_000(
        {"8.0.0": {camel: [300, 303, 297, 301], newtonsoft: [900, 910]}, "3.1.3": {camel: [500, 505, 495, 500]}}
    )
    verdicts = pd.DataFrame([asdict(v) for v in verdicts_for(exp, rows, RatioBook(rows))])
    across = verdicts[verdicts["scenario"].str.startswith("MyClass deserialize across runtimes")]
    after = across[across["published_variant"] == f"{camel} on .NET 5.0 alpha"].iloc[0]
    assert after["runtime"] == "8.0.0/3.1.3" and after["isa_level"] == "no-avx512"
    assert after["published_ratio"] == pytest.approx(1536.0 / 2548.0, rel=1e-3)
    assert after["measured_ratio"] == pytest.approx(0.6, rel=0.01)
    assert after["verdict"] == "reproduced" and "over SystemTextCaseInsensitive_Camel on 3.1.3" in after["note"]
    assert not (across["published_variant"] == f"{camel} on .NET Core 3.1").any(), "the 'before' row has no ratio"
    # a side that did not run (Newtonsoft.Json on 3.1.3): not measured
    alone = across[across["published_variant"] == f"{newtonsoft} on .NET 5.0 alpha"].iloc[0]
    assert (
        alone["verdict"] == "not measured: this run measured NewtonSoftJson_Camel at no-avx512 on 3.1.3 in no process"
    )
    assert alone["runtime"] == "8.0.0/3.1.3"


def test_the_published_ratio_across_runtimes_is_taken_against_the_reference_row_at_its_coordinates():
    claims = load_experiments()["000"].claims
    after = next(c for c in claims if c.published_variant == "NewtonSoftJson_Camel on .NET 5.0 alpha")
    assert dict(after.at) == {"runtime": "8.0.0"} and dict(after.reference_at) == {"runtime": "3.1.3"}
    assert published_ratio(after, claims, "time")[0] == pytest.approx(1799.2 / 2852.0)
    # the same benchmark's figure in the same table at other coordinates is not the reference
    before = next(c for c in claims if c.published_variant == "NewtonSoftJson_Camel on .NET Core 3.1")
    assert before.is_before_row and not after.is_before_row


def test_a_claim_across_labs_pairs_the_two_labs_processes_of_each_round_and_says_so(tmp_path):
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "900-cross-lab.toml").write_text((FIXTURES / "cross-lab-claim.toml").read_text())
    exp = load_experiments(folder)["900"]
    check_experiment(exp, load_context())  # `just check` takes it: a runtime of each lab among its lab_runtimes
    rows = _rows_000({"24.21.0": {"node-json": [150, 152, 149, 151]}, "8.0.0": {"newtonsoft": [500, 505, 497, 503]}})
    rows["experiment"] = "900"
    verdicts = pd.DataFrame([asdict(v) for v in verdicts_for(exp, rows, RatioBook(rows))])
    node = verdicts[verdicts["benchmark"] == "node-json"].iloc[0]
    assert node["runtime"] == "24.21.0/8.0.0" and node["reference"] == "newtonsoft"
    assert node["measured_ratio"] == pytest.approx(0.3, rel=0.01) and node["pairs"] == 4
    assert node["verdict"] == "reproduced", "0.30 against the published 0.29"
    assert (
        "across labs: node-json (reference-node)" in node["note"] and "processes of each round paired" in node["note"]
    )
