import pytest

from harness.model.cells import Cell, JobSettings
from harness.model.folder.records import ResultRow
from harness.model.outcomes import Statistics

BASE = dict(
    run_id="r",
    cell_id="e:b@native",
    experiment="e",
    benchmark="b",
    group="g",
    baseline="b",
    lab="dotnet",
    variant="v",
    dataset="d",
    operation="deserialize",
    isa_requested="native",
    cpuset="1",
    profile="smoke",
)


def test_an_unknown_status_names_the_field_and_the_valid_values():
    with pytest.raises(
        ValueError, match=r"ResultRow.status = 'done'.*\('ok', 'unverified', 'failed', 'skipped', 'disturbed'\)"
    ):
        ResultRow(**BASE, status="done")


def test_a_replaced_disturbed_row_has_a_key_of_its_own_beside_its_round_and_says_why():
    row = ResultRow(**BASE, status="disturbed", mean_ns=10.0, error="disturbed: 50% …; replaced", replaced=1)
    assert row.row_key.endswith("!replaced-1") and row.row_key.startswith(
        ResultRow(**BASE, status="skipped", error="x").row_key
    )
    with pytest.raises(ValueError, match="must say why"):
        ResultRow(**BASE, status="disturbed", mean_ns=10.0)


def test_an_ok_row_must_have_passed_verification():
    with pytest.raises(ValueError, match="verification_status"):
        ResultRow(**BASE, status="ok", mean_ns=10.0, verification_status="failed")


def test_a_failed_row_must_say_why():
    with pytest.raises(ValueError, match="error"):
        ResultRow(**BASE, status="failed")


def test_rows_round_trip_through_dicts_and_reject_unknown_fields():
    row = ResultRow(**BASE, status="unverified", mean_ns=5.0, verification_status="failed")
    assert ResultRow.from_dict(row.to_dict()) == row
    with pytest.raises(ValueError, match="unknown fields"):
        ResultRow.from_dict({**row.to_dict(), "surprise": 1})


@pytest.mark.parametrize(
    "fields, why",
    [
        ({"native_anchor_ns": {"scan": "fast"}}, "native_anchor_ns .* its member 'scan': not a list"),
        ({"native_anchor_ns": {"scan": [5e4, "x"]}}, "an item is not a number"),
        ({"native_anchor_ns": {"scan": [5e4, 0.0]}}, "time per call is not positive"),
        ({"burst_ns": [10.0, -1.0]}, "time per call is not positive"),
        ({"runtime_switches": {"DOTNET_X": 1}}, "its member 'DOTNET_X': not a string"),
        ({"error": "x" * (64 << 10 | 1)}, "error = .*: a text of 65,537 characters; at most 65,536"),
        ({"runtime_switches": {"DOTNET_X": "1" * 70000}}, "its member 'DOTNET_X': a text of 70,000 characters"),
    ],
)
def test_a_stored_row_whose_per_round_times_or_members_are_damaged_is_refused(fields, why):
    row = ResultRow(**BASE, status="unverified", mean_ns=5.0, verification_status="failed")
    with pytest.raises(ValueError, match=why):
        ResultRow.from_dict({**row.to_dict(), **fields})


def test_statistics_reject_an_interval_that_misses_the_mean():
    with pytest.raises(ValueError, match="ci99"):
        Statistics(n=3, mean_ns=10, median_ns=10, stddev_ns=1, ci99_lower_ns=11, ci99_upper_ns=12, min_ns=9, max_ns=11)


def test_job_settings_become_lab_flags_only_when_set():
    assert JobSettings(warmup_count=2, iteration_time_ms=20).to_args() == [
        "--warmup-count",
        "2",
        "--iteration-time-ms",
        "20",
    ]
    assert JobSettings().to_args() == []
    with pytest.raises(ValueError, match="positive"):
        JobSettings(iteration_count=0)


def test_cell_slug_is_file_system_safe():
    cell = Cell("000", "Odd Name/x", "g", "b", "dotnet", "v", "d", "deserialize", "no-avx2")
    assert cell.cell_id == "000:Odd Name/x@no-avx2"
    assert cell.slug == "000__Odd_Name_x__no-avx2"
