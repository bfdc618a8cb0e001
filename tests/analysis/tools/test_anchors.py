"""What an in-process anchor could buy ratios across runtimes (analysis/tools/anchors.py)."""

from __future__ import annotations

import numpy as np
import pandas as pd

from analysis.cli import main
from analysis.compute.load import RunData, unknown_run
from analysis.tools.anchors import anchor_markdown, anchor_spreads, anchor_summary, write_anchors

BURSTS = 20
SPEED = {"3.1.3": {"B": 1000.0, "M": 500.0}, "8.0.0": {"B": 600.0, "M": 450.0}}


def _run(tmp_path, shared_sd: float, own_sd: float, rounds: int = 12, native: dict[str, str] | None = None) -> RunData:
    """Group g of B and its co-member M on two runtimes, one process per runtime and round: each process draws a
    machine speed both members feel (sd `shared_sd`), each member its own offset on top (sd `own_sd`). With `native`
    (runtime → the library's sha256), each process also timed a native anchor `scan` of 50 µs that feels the same
    machine speed and nothing of the runtime."""
    rng, rng_native = np.random.default_rng(3), np.random.default_rng(5)
    rows = []
    for runtime, members in SPEED.items():
        for k in range(1, rounds + 1):
            machine = rng.normal(0, shared_sd)
            scan = list(50_000 * np.exp(machine + rng_native.normal(0, 0.002, BURSTS)))
            for name, ns in members.items():
                bursts = ns * np.exp(machine + rng.normal(0, own_sd) + rng.normal(0, 0.002, BURSTS))
                rows.append(
                    {
                        "status": "ok",
                        "isa_requested": "native",
                        "experiment": "x",
                        "group": "g",
                        "runtime_requested": runtime,
                        "benchmark": name,
                        "baseline": "M",
                        "round_index": k,
                        "partner": None,
                        "burst_ns": list(bursts),
                        "median_ns": float(np.median(bursts)),
                        "native_anchor_ns": {"scan": scan} if native else None,
                        "native_anchors_sha256": native[runtime] if native else None,
                    }
                )
    return RunData(tmp_path, pd.DataFrame(rows), None, unknown_run("t"), [], [], [])


def _row(spreads: pd.DataFrame, kind: str, label: str) -> pd.Series:
    return spreads[(spreads["kind"] == kind) & (spreads["ratio"] == label)].iloc[0]


def test_a_machine_speed_both_members_feel_cancels_in_the_anchored_ratio(tmp_path):
    spreads = anchor_spreads(_run(tmp_path, shared_sd=0.10, own_sd=0.005))
    across = _row(spreads, "across runtimes", "x:B@native 8.0.0/3.1.3")
    assert across["pairs"] == 12 and across["anchors"] == 1
    assert 0.08 < across["plain_log_sd"] and across["anchored_log_sd"] < 0.02
    assert across["anchored_rel_half_width"] < across["plain_rel_half_width"] / 4
    aa = _row(spreads, "A/A across processes", "x:B@native/8.0.0")
    assert aa["pairs"] == 6 and aa["plain_holds_1"] and aa["anchored_holds_1"]
    assert aa["anchored_log_sd"] < aa["plain_log_sd"] / 4


def test_noise_of_each_member_of_its_own_does_not_cancel(tmp_path):
    spreads = anchor_spreads(_run(tmp_path, shared_sd=0.0, own_sd=0.05))
    across = _row(spreads, "across runtimes", "x:B@native 8.0.0/3.1.3")
    # the anchor adds its own noise: the ratio of ratios carries both members' (about sqrt 2 times the plain spread)
    assert across["anchored_log_sd"] > across["plain_log_sd"]


def test_the_summary_counts_intervals_holding_1_and_the_report_escapes_nothing_it_did_not_read(tmp_path):
    run = _run(tmp_path, shared_sd=0.10, own_sd=0.005)
    summary = anchor_summary(anchor_spreads(run))
    assert list(summary["kind"]) == ["A/A across processes", "across runtimes"]
    assert summary.set_index("kind").loc["A/A across processes", "ratios"] == 4  # B and M on each runtime
    text = anchor_markdown(run, summary)
    assert "| across runtimes | co-member | 2 |" in text  # B 8.0.0/3.1.3 and M 8.0.0/3.1.3
    path = write_anchors(run, tmp_path / "out")
    assert path.read_text(encoding="utf-8") == text and (tmp_path / "out" / "anchors.csv").is_file()


def test_a_run_without_paired_processes_gives_an_empty_table(tmp_path):
    run = _run(tmp_path, 0.1, 0.01)
    run.rows["burst_ns"] = None
    assert anchor_spreads(run).empty
    assert "| Ratios |" in anchor_markdown(run, anchor_summary(anchor_spreads(run)))


def test_a_run_folder_whose_only_line_is_torn_gives_an_empty_table_not_a_traceback(tmp_path):
    (tmp_path / "results.jsonl").write_text('{"torn', encoding="utf-8")
    assert main(["anchors", str(tmp_path), "--out", str(tmp_path / "out")]) == 0
    assert "| Ratios |" in (tmp_path / "out" / "anchors.md").read_text(encoding="utf-8")


def test_a_native_anchor_estimates_the_ratio_across_runtimes_and_its_own_ratio_holds_1(tmp_path):
    run = _run(tmp_path, shared_sd=0.10, own_sd=0.005, native={"3.1.3": "aa", "8.0.0": "aa"})
    spreads = anchor_spreads(run)
    across = _row(spreads, "across runtimes", "x:B@native 8.0.0/3.1.3")
    assert across["native_scan_log_sd"] < 0.02 < 0.08 < across["plain_log_sd"]
    assert abs(across["native_scan_estimate"] / 0.6 - 1) < 0.01  # B: 600 ns on 8.0.0 against 1000 on 3.1.3
    assert abs(across["native_scan_estimate"] / 0.6 - 1) < abs(across["plain_estimate"] / 0.6 - 1) + 0.01
    itself = _row(spreads, "native anchor across runtimes", "x:g@native native scan 8.0.0/3.1.3")
    assert itself["plain_holds_1"] and itself["pairs"] == 12
    aa = _row(spreads, "A/A across processes", "x:B@native/3.1.3")
    assert aa["native_scan_holds_1"] and aa["native_scan_log_sd"] < aa["plain_log_sd"] / 4
    summary = anchor_summary(spreads)
    assert list(summary["anchor"]) == ["co-member", "native scan", "co-member", "native scan", "itself"]
    assert "| across runtimes | native scan | 2 |" in anchor_markdown(run, summary)


def test_processes_of_two_anchor_libraries_are_not_read_through_them(tmp_path):
    spreads = anchor_spreads(_run(tmp_path, shared_sd=0.10, own_sd=0.005, native={"3.1.3": "aa", "8.0.0": "bb"}))
    across = _row(spreads, "across runtimes", "x:B@native 8.0.0/3.1.3")
    assert pd.isna(across["native_scan_log_sd"]) and pd.isna(across.get("native_scan_estimate"))
    assert not (spreads["kind"] == "native anchor across runtimes").any()
    assert _row(spreads, "A/A across processes", "x:B@native/8.0.0")["native_scan_holds_1"]  # one runtime, one library


def test_an_anchor_name_that_is_not_a_plain_name_is_left_out_of_the_table(tmp_path):
    run = _run(tmp_path, shared_sd=0.10, own_sd=0.005, native={"3.1.3": "aa", "8.0.0": "aa"})
    run.rows["native_anchor_ns"] = run.rows["native_anchor_ns"].map(lambda t: {**t, "<script>x": t["scan"]})
    summary = anchor_summary(anchor_spreads(run))
    assert "<script>" not in anchor_markdown(run, summary) and "native scan" in set(summary["anchor"])
