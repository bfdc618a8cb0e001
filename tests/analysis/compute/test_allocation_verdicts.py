"""Published Allocated figures judged in bytes, beside the allocation ratio: equal, within the stated tolerance, or
not."""

import dataclasses

import pytest

from analysis.compute.verdicts.verdicts import verdict_table
from analysis.formatting.tables import reproduction_markdown
from analysis.sections.summary import summary_markdown
from harness.config.experiment.experiments import load_experiments
from harness.model.judging import BYTES_DIFFER, BYTES_EQUAL, BYTES_ONLY, BYTES_WITHIN, NOT_MEASURED, VOID, judge_bytes

EXTENDED = "MyClass deserialize, STJ-team comment extended table"


@pytest.mark.parametrize(
    "published, measured, tolerance, void, expected",
    [
        (224, 224.0, 0, False, BYTES_EQUAL),
        (224, 224.4, 0, False, BYTES_EQUAL),  # BenchmarkDotNet prints whole bytes
        (224, 232.0, 0, False, BYTES_DIFFER),
        (3103, 3104.0, 6, False, BYTES_WITHIN),  # "3.03 KB": known to ±6 B
        (3103, 3110.0, 6, False, BYTES_DIFFER),
        (0, 0.0, 0, False, BYTES_EQUAL),  # "-": allocates nothing
        (224, None, 0, False, NOT_MEASURED),
        (224, 224.0, 0, True, VOID),
    ],
)
def test_judge_bytes(published, measured, tolerance, void, expected):
    assert judge_bytes(published, measured, tolerance, void) == expected


@pytest.fixture(scope="module")
def byte_verdicts(fake_cells, fake_rows):
    """000's verdicts with measured allocations set: 224 B for SystemTextCaseSensitive_Pascal (published 224), 230 B for
    SystemTextCaseInsensitive_Pascal (published 224, tolerance 8 B stated by the experiment), 3104 B for the baseline.
    """
    cells = fake_cells.copy()
    for benchmark, value in (
        ("SystemTextCaseSensitive_Pascal", 224.0),
        ("SystemTextCaseInsensitive_Pascal", 230.0),
        ("NewtonSoftJson_Camel", 3104.0),
    ):
        cells.loc[cells["benchmark"] == benchmark, "allocated_bytes_per_op"] = value
    exp = dataclasses.replace(load_experiments()["000"], allocated_tolerance_bytes=8)
    table = verdict_table([exp], cells, fake_rows)
    return table[table["primary"] & (table["metric"] == "allocated")]


def _row(verdicts, scenario, variant):
    return verdicts[(verdicts["scenario"] == scenario) & (verdicts["published_variant"] == variant)].iloc[0]


def test_an_allocation_claim_gets_a_byte_verdict_beside_its_ratio_verdict(byte_verdicts):
    exact = _row(byte_verdicts, EXTENDED, "SystemTextCaseSensitive_Pascal")
    assert (exact["measured_value"], exact["bytes_verdict"]) == (224.0, BYTES_EQUAL)
    assert exact["verdict"] != BYTES_ONLY and exact["published_ratio"] == pytest.approx(224 / 3104, abs=1e-4)
    within = _row(byte_verdicts, EXTENDED, "SystemTextCaseInsensitive_Pascal")
    assert (within["bytes_verdict"], within["allocated_tolerance_bytes"]) == (BYTES_WITHIN, 8)
    assert (
        _row(byte_verdicts, EXTENDED, "SystemText_CamelNamingPolicy")["bytes_verdict"] == BYTES_DIFFER
    )  # 696 B measured


def test_the_tables_baseline_is_judged_in_bytes_only(byte_verdicts):
    baseline = _row(byte_verdicts, EXTENDED, "NewtonSoftJson_Camel")
    assert baseline["verdict"] == BYTES_ONLY and baseline["bytes_verdict"] == BYTES_EQUAL
    assert baseline["ratio_source"] == "none: the table's baseline"


def test_a_variant_that_failed_verification_has_a_void_byte_verdict(byte_verdicts):
    assert (
        _row(byte_verdicts, "MyClass deserialize, memory (blog table 3)", "SystemTextCaseInsensitive_Camel")[
            "bytes_verdict"
        ]
        == BYTES_DIFFER
    )
    camel = byte_verdicts[byte_verdicts["benchmark"] == "SystemTextCaseSensitive_Camel"]
    assert camel.empty or (camel["bytes_verdict"] == VOID).all()


def test_the_reproduction_table_and_the_summary_show_the_byte_verdicts(byte_verdicts, fake_cells):
    text = reproduction_markdown(byte_verdicts)
    assert "| 224 B (±8 B) → 224 B: **equal** |" in text and "| 224 B (±8 B) → 230 B: **within tolerance** |" in text
    assert "— (none: the table's baseline)" in text
    summary = summary_markdown(fake_cells, byte_verdicts)
    assert (
        "- Published Allocated figures, in bytes: " in summary
        and "1 equal" not in summary.split("Reproduction verdicts")[1].split("\n")[0]
    )
    assert BYTES_ONLY not in summary
