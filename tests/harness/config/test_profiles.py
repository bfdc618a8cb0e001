import pytest

from harness.config.experiment.profiles import Stopping, load_profiles
from harness.model.cells import JobSettings
from harness.model.errors import ConfigError
from harness.planning.estimate import describe_estimate, process_seconds
from harness.session.rounds.calibration import summarize


def test_the_shipped_profiles_load_with_their_designs_and_stopping_rules():
    profiles = load_profiles()
    assert (
        profiles["default"].design == "paired-pipelined"
        and profiles["default"].aa_copies
        and profiles["default"].stopping.adaptive
    )
    assert profiles["smoke"].stopping == Stopping(2, 2)
    assert profiles["default"].job.prewarm_ms == 3000 and profiles["default"].job.prewarm_quiet_ms == 300
    assert profiles["default"].only_claimed and profiles["default"].isa_levels == ("claims",)


def test_an_unknown_design_is_a_config_error_naming_the_valid_ones(tmp_path):
    path = tmp_path / "profiles.toml"
    path.write_text(
        'schema_version = 1\n[profiles.x]\ndescription = "d"\nexperiments = ["all"]\nisa_levels = ["all"]\ndesign = '
        '"dual"\n'
    )
    with pytest.raises(ConfigError, match="design 'dual' is not one of sequential, interleaved, duet"):
        load_profiles(path)


def test_the_group_cap_is_the_smaller_of_the_group_and_per_cell_caps():
    assert Stopping(1, 9, 0.02, group_time_cap_s=100, cell_time_cap_s=30).time_cap_s(5) == 100
    assert Stopping(1, 9, 0.02, cell_time_cap_s=30).time_cap_s(2) == 60
    assert Stopping(1, 9).time_cap_s(3) is None


def test_the_estimate_names_both_ends_for_adaptive_runs_and_admits_what_it_cannot_know():
    job = JobSettings(warmup_count=1, iteration_count=40, iteration_time_ms=50, prewarm_ms=3000, prewarm_quiet_ms=300)
    assert process_seconds(job) == pytest.approx(0.8 + 0.8 + 41 * 0.05 * 1.1)  # quiet prewarm, no pilot
    fixed = JobSettings(warmup_count=4, iteration_count=15, iteration_time_ms=50, prewarm_ms=1000)
    assert process_seconds(fixed) == pytest.approx(0.8 + 1.0 + 19 * 0.05 * 1.1)
    piloted = JobSettings(warmup_count=4, iteration_count=15, iteration_time_ms=50)
    assert process_seconds(piloted) == pytest.approx(0.8 + 24 * 0.05 * 1.1)
    text = describe_estimate(job, Stopping(3, 40, 0.02, cell_time_cap_s=26), cells=100, groups=15)
    assert text.startswith("about 19 min at 3 round(s), at most 50 min")
    automatic = describe_estimate(JobSettings(), Stopping(5, 5), 60, 2)
    assert automatic.startswith(
        "about 62 min to 6.4 h at 5 round(s): BenchmarkDotNet's automatic job decides"
    ), "60 cells × 5 processes of 12.3 s (6 + 15 iterations) to 77 s (50 + 100)"


def test_calibration_summary_is_median_and_cv():
    cal = summarize("before native", "1", "sha256", [10.0, 10.2, 9.8, 10.0])
    assert cal.median_ms == 10.0 and 0 < cal.cv < 0.02 and cal.repetitions == 4


def test_peak_rss_runs_are_read_from_a_profile_and_a_misspelt_key_is_refused(tmp_path):
    head = 'schema_version = 1\n[profiles.x]\ndescription = "d"\nexperiments = ["all"]\nisa_levels = ["all"]\n'
    path = tmp_path / "profiles.toml"
    path.write_text(head + "peak_rss_runs = 2\n")
    assert load_profiles(path)["x"].peak_rss_runs == 2
    assert load_profiles()["cross-language"].peak_rss_runs == 1 and load_profiles()["default"].peak_rss_runs == 0
    path.write_text(head + "peak_rss_run = 2\n")
    with pytest.raises(ConfigError, match="unknown key.s. peak_rss_run; a profile's keys are"):
        load_profiles(path)
    path.write_text(head + "peak_rss_runs = -1\n")
    with pytest.raises(ConfigError, match="peak_rss_runs must be a whole number, 0 or more"):
        load_profiles(path)


def test_peak_rss_runs_add_a_cold_process_to_each_process_of_the_estimate():
    job = JobSettings(warmup_count=1, iteration_count=10, iteration_time_ms=100, prewarm_ms=1000)
    plain = describe_estimate(job, Stopping(6, 6), cells=600, groups=10)
    with_rss = describe_estimate(job, Stopping(6, 6), cells=600, groups=10, peak_rss_runs=1)
    assert plain != with_rss


def test_a_budgeted_adaptive_run_is_estimated_at_its_budget_unless_its_caps_end_it_sooner():
    job = JobSettings(warmup_count=1, iteration_count=10, iteration_time_ms=100, prewarm_ms=1000)
    stopping = Stopping(6, 40, 0.02, cell_time_cap_s=60)
    text = describe_estimate(job, stopping, cells=100, groups=20, budget_min=57)
    assert text.startswith("about 57 min (its budget, unless every group is done sooner); about ")
    small = describe_estimate(job, stopping, cells=4, groups=1, budget_min=57)
    high = int(small.rsplit("at most ", 1)[1].split(" min")[0])
    assert small.startswith(f"about {high} min (its budget"), "a run whose caps end it before its budget"
