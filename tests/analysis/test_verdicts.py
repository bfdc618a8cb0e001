import pandas as pd
import pytest

from analysis.verdicts import INCONCLUSIVE, NOT_REPRODUCED, REPRODUCED, SAME_DIRECTION, VOID, judge, published_ratio, verdict_table
from harness.experiments import load_experiments


@pytest.mark.parametrize("published, measured, lower, upper, void, expected", [
    (0.51, 0.55, 0.53, 0.57, False, REPRODUCED),          # the whole interval inside ±15% of 0.51
    (0.51, 0.55, 0.45, 0.66, False, INCONCLUSIVE),        # straddles the band's upper edge (0.5865)
    (0.51, 0.30, 0.28, 0.32, False, SAME_DIRECTION),
    (0.86, 1.40, 1.30, 1.50, False, NOT_REPRODUCED),
    (0.51, 0.90, 0.80, 1.10, False, NOT_REPRODUCED),      # outside the band and not clearly below 1
    (1.02, 0.99, 0.97, 1.01, False, REPRODUCED),
    (0.51, 0.52, None, None, False, INCONCLUSIVE),        # one replicate: no interval, no verdict
    (0.29, 0.12, 0.10, 0.14, True, VOID),
])
def test_judge_uses_the_interval(published, measured, lower, upper, void, expected):
    assert judge(published, measured, void, lower, upper) == expected


def test_allocations_are_judged_as_points():
    assert judge(0.07, 0.075, False, interval=False) == REPRODUCED


def test_a_ratio_is_derived_from_published_means_when_none_was_printed():
    claims = load_experiments()["000"].claims
    camel = next(c for c in claims if c.scenario.endswith("(blog table 1)") and c.published_variant == "SystemTextCaseInsensitive_Camel")
    ratio, source = published_ratio(camel, claims, "time")
    assert ratio == pytest.approx(2548 / 1511)
    assert source == "derived from published means"
    assert published_ratio(camel, claims, "allocated") is None


def test_printed_ratios_are_used_as_published():
    claims = load_experiments()["001"].claims
    per_call = next(c for c in claims if c.benchmark == "file-stj-case-insensitive-options-per-call")
    assert published_ratio(per_call, claims, "time") == (0.83, "published")
    assert published_ratio(per_call, claims, "allocated")[0] == pytest.approx(522772 / 771748)


def test_claims_on_unverified_variants_are_void_and_others_judged_at_the_matching_level(fake_cells, fake_rows):
    experiments = list(load_experiments().values())
    verdicts = verdict_table(experiments, fake_cells, fake_rows)
    primary = verdicts[verdicts["primary"]]
    assert set(primary["isa_level"]) == {"no-avx512"}
    void = primary[primary["benchmark"].isin(["SystemTextCaseSensitive_Camel", "single-stj-default", "file-stj-default"])]
    assert not void.empty and (void["verdict"] == VOID).all()
    annotated = primary[(primary["benchmark"] == "SystemTextCaseSensitive_Annotated") & (primary["metric"] == "time")].iloc[0]
    assert annotated["measured_ratio"] == pytest.approx(0.5, rel=0.03)
    assert annotated["measured_ratio_lower"] < annotated["measured_ratio"] < annotated["measured_ratio_upper"]
    assert annotated["verdict"] == REPRODUCED  # published 0.54: band 0.46–0.62
    assert not (verdicts["benchmark"] == verdicts["reference"]).any()


def test_a_verdict_against_a_derived_reference_uses_that_reference_not_the_group_baseline(fake_cells, fake_rows):
    verdicts = verdict_table([load_experiments()["000"]], fake_cells, fake_rows)
    row = verdicts[(verdicts["scenario"].str.endswith("(blog table 1)")) & (verdicts["benchmark"] == "SystemTextCaseInsensitive_Camel") & verdicts["primary"]].iloc[0]
    assert row["reference"] == "SystemTextCaseSensitive_Pascal"
    assert row["measured_ratio"] == pytest.approx(2.0, rel=0.03)  # 1× over stj-default's 0.5×
    assert isinstance(verdicts, pd.DataFrame)
