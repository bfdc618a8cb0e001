import math

import pandas as pd
import pytest
from scipy import stats

from analysis.cli import main
from analysis.render.writer import write_comparison
from analysis.tools.compare import FASTER, INCONCLUSIVE, SAME, SLOWER, classify, compare_verdicts, welch_log_ratio
from harness.backends.fake import FakeBackend
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES


def _run(results, run_id, newtonsoft_scale, spread=0.01, isa_level="native"):
    backend = FakeBackend(
        FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": newtonsoft_scale}, process_spread=spread
    )
    options = RunOptions(
        profile="smoke",
        design="interleaved",
        runtimes=("10.0.12",),
        run_id=run_id,
        results_dir=results,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
        isa_levels=(isa_level,),
    )
    return execute_run(options, backend).directory


@pytest.mark.parametrize(
    "ratio, lower, upper, expected",
    [
        (1.20, 1.15, 1.25, SLOWER),
        (0.80, 0.75, 0.85, FASTER),
        (1.01, 0.98, 1.03, SAME),
        (1.03, 1.01, 1.05, SAME),  # significant, but all of it within the 5% threshold
        (1.03, 1.01, 1.06, INCONCLUSIVE),  # significant, estimate under the threshold, interval across it
        (1.10, 0.90, 1.30, INCONCLUSIVE),
        (1.10, None, None, INCONCLUSIVE),
    ],
)
def test_classify_needs_the_interval_beyond_one_and_the_estimate_beyond_the_threshold(ratio, lower, upper, expected):
    assert classify(ratio, lower, upper, 0.05) == expected


def test_the_welch_interval_matches_scipys_test_on_log_means():
    a, b = [100.0, 104.0, 98.0, 101.0], [110.0, 113.0, 108.0, 115.0, 111.0]
    ratio, lower, upper, p = welch_log_ratio(a, b)
    assert ratio == pytest.approx(math.exp(sum(map(math.log, b)) / 5 - sum(map(math.log, a)) / 4))
    assert p == pytest.approx(
        stats.ttest_ind([math.log(x) for x in b], [math.log(x) for x in a], equal_var=False).pvalue
    )
    assert lower < ratio < upper


def test_comparing_two_runs_finds_the_changed_baseline_and_the_ratios_that_moved_with_it(tmp_path):
    a = _run(tmp_path / "results", "a", 2.0)
    b = _run(tmp_path / "results", "b", 2.6)
    path = write_comparison(a, b, tmp_path / "cmp")
    text = path.read_text()
    cells = (tmp_path / "cmp" / "cells.csv").read_text()
    assert "| 000:NewtonSoftJson_Camel@native/10.0.12 |" in text and "| **slower** |" in text
    assert (tmp_path / "cmp" / "compare.png").stat().st_size > 1000 and (tmp_path / "cmp" / "compare.svg").is_file()
    assert cells.count("slower") == 2  # the two Newtonsoft cells
    ratios = (tmp_path / "cmp" / "baseline-ratios.csv").read_text()
    assert "False" in ratios  # ratios against the slowed baseline no longer agree
    # a 30% slower baseline moves the smoke figures' verdicts: each difference is listed with the drift that caused it
    verdicts = pd.read_csv(tmp_path / "cmp" / "verdicts.csv")
    differ = verdicts[~verdicts["same"]]
    assert not differ.empty and "## Verdicts that differ" in text
    assert differ["reason"].str.contains("the band's edge at").all()
    assert "Published figures with a verdict in both runs" in text


def test_two_hosts_of_one_run_compare_into_that_runs_folder(tmp_path):
    hosts = tmp_path / "results" / "two-hosts" / "hosts"
    path = write_comparison(_run(hosts, "local", 2.0), _run(hosts, "second", 2.0))
    assert path == tmp_path / "results" / "two-hosts" / "comparisons" / "local_vs_second" / "compare.md"
    assert "slower" not in (path.parent / "cells.csv").read_text()


def test_a_run_compared_with_itself_agrees_everywhere(tmp_path):
    a = _run(tmp_path / "results", "a", 2.0)
    write_comparison(a, a, tmp_path / "cmp")
    cells = (tmp_path / "cmp" / "cells.csv").read_text()
    assert "slower" not in cells and "faster" not in cells
    assert "False" not in (tmp_path / "cmp" / "baseline-ratios.csv").read_text()
    verdicts = pd.read_csv(tmp_path / "cmp" / "verdicts.csv")
    assert len(verdicts) > 0 and verdicts["same"].all()


def test_a_verdict_that_changes_with_agreeing_ratios_is_put_down_to_the_band_edge():
    def table(measured, lower, upper, verdict):
        return pd.DataFrame(
            [
                {
                    "experiment": "004",
                    "scenario": "s",
                    "published_variant": "Jil",
                    "metric": "time",
                    "isa_level": "native",
                    "runtime": "8.0.0",
                    "benchmark": "jil",
                    "reference": "newtonsoft",
                    "published_ratio": 0.5,
                    "primary": True,
                    "measured_ratio": measured,
                    "measured_ratio_lower": lower,
                    "measured_ratio_upper": upper,
                    "verdict": verdict,
                }
            ]
        )

    ratios = pd.DataFrame(
        [
            {
                "experiment": "004",
                "benchmark": "jil",
                "isa_level": "native",
                "runtime": "8.0.0",
                "agree": True,
                "drift": 1.01,
                "drift_ci99_lower": 0.99,
                "drift_ci99_upper": 1.03,
            }
        ]
    )
    both = compare_verdicts(
        table(0.43, 0.42, 0.44, "same direction only"), table(0.433, 0.423, 0.443, "inconclusive"), ratios
    )
    assert not both["same"].iloc[0] and both["measured"].iloc[0]
    assert (
        "agree within their intervals" in both["reason"].iloc[0]
        and "run b's interval crosses the band's edge at 0.425" in both["reason"].iloc[0]
    )
    moved = ratios.assign(agree=False, drift=1.2, drift_ci99_lower=1.1, drift_ci99_upper=1.3)
    assert (
        compare_verdicts(table(0.43, 0.42, 0.44, "same direction only"), table(0.52, 0.51, 0.53, "reproduced"), moved)[
            "reason"
        ]
        .iloc[0]
        .startswith("the ratio moved between the runs: 0.43 → 0.52 (b/a 1.200 [1.100, 1.300])")
    )


def test_two_runs_with_no_cell_in_common_are_an_error_saying_what_each_measured(tmp_path, capsys):
    a = _run(tmp_path / "results", "a", 2.0)
    b = _run(tmp_path / "results", "b", 2.0, isa_level="no-avx512")
    capsys.readouterr()  # the runs' progress
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: runs a and b have no measured cell in common: a measured ") and "Traceback" not in err
    assert (
        "ISA levels native;" in err and "ISA levels no-avx512;" in err and "\nhint: compare two runs of the same" in err
    )
    assert not (tmp_path / "cmp").exists(), "no empty table written"


def test_a_run_that_measured_nothing_has_nothing_in_common(tmp_path, capsys):
    a = _run(tmp_path / "results", "a", 2.0)
    empty = tmp_path / "results" / "empty"
    empty.mkdir()
    (empty / "results.jsonl").write_bytes(b"")
    capsys.readouterr()
    assert main(["compare", str(a), str(empty), "--out", str(tmp_path / "cmp")]) == 2
    assert "empty measured nothing (no row with a measurement)" in capsys.readouterr().err


def test_a_torn_last_line_left_out_of_a_comparison_is_named_with_its_file(tmp_path, caplog):
    a = _run(tmp_path / "results", "a", 2.0)
    b = _run(tmp_path / "results", "b", 2.0)
    lines = (b / "results.jsonl").read_bytes().count(b"\n")
    with (b / "results.jsonl").open("ab") as f:
        f.write(b'{"schema_version": 10, "cell_id": "000:Sys')  # what a run killed mid-write leaves
    assert main(["compare", str(a), str(b), "--out", str(tmp_path / "cmp")]) == 0
    text = (tmp_path / "cmp" / "compare.md").read_text()
    said = f"**Left out of run b**: 1 line of `b/results.jsonl` (line {lines + 1}, not JSON"
    assert said in text.split("Cells measured in both runs")[0], "under the title, before the numbers"
    assert "Left out of run a" not in text
    assert f"note: Left out of run b: 1 line of `b/results.jsonl` (line {lines + 1}" in caplog.text, "and on stderr"
