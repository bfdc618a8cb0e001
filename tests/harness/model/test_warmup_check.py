"""Processes whose warm-up was cut short are set aside (harness/model/stats/warmup_check.py, analysis/compute/load.py,
harness/session/rounds/stopping.py)."""

from __future__ import annotations

from types import SimpleNamespace

import pandas as pd

from analysis.compute.load import SET_ASIDE, set_aside
from analysis.compute.noise import set_aside_markdown
from harness.config.experiment.profiles import Stopping
from harness.model.folder.records import ResultRow
from harness.model.stats.warmup_check import short_warmups, usable
from harness.session.rounds.stopping import rows_precision


def _row(
    benchmark: str,
    round_index: int,
    compilations: int | None,
    paired: bool = True,
    ns: float = 100.0,
    prewarm_ms: float | None = None,
    **extra,
):
    # a warm-up's time follows its compilations unless given: 2.3 s for 1,285 of them
    prewarm_ms = (
        prewarm_ms
        if prewarm_ms is not None
        else (None if compilations is None else 2300.0 * min(1.0, compilations / 1285))
    )
    return SimpleNamespace(
        prewarm_ms=prewarm_ms,
        cell_id=f"000:{benchmark}@native",
        round_index=round_index,
        partner=None,
        isa_requested="native",
        experiment="000",
        group="g",
        runtime_requested="10.0.12",
        benchmark=benchmark,
        prewarm_compilations=compilations,
        burst_ns=[ns, ns] if paired else None,
        **extra,
    )


def test_a_process_far_below_its_siblings_jit_count_is_set_aside_with_the_reason():
    counts = [1285, 1283, 303, 1290, 1288]
    rows = [_row(b, k + 1, c) for k, c in enumerate(counts) for b in ("base", "v")]
    short = short_warmups(rows)
    assert set(short) == {("000:base@native", 3, None), ("000:v@native", 3, None)}
    reason = short[("000:v@native", 3, None)]
    assert "303 JIT compilations and 542 ms" in reason and "median of 1,285 and 2,300 ms" in reason
    assert len(usable(rows)) == 8


def test_a_process_that_warmed_as_long_as_its_siblings_is_kept_however_little_it_compiled():
    # write-up 003's 4.9 MB deserialization: 884 compilations in a normal 4.0 s warm-up
    rows = [
        _row("v", k, c, prewarm_ms=ms)
        for k, (c, ms) in enumerate(((1251, 4100.0), (1216, 4300.0), (884, 4001.0), (1299, 3900.0)), 1)
    ]
    assert short_warmups(rows) == {}


def test_one_short_member_sets_its_whole_paired_process_aside():
    rows = [_row("base", k, 1000) for k in (1, 2, 3, 4)] + [_row("v", k, 1000) for k in (1, 2, 3)] + [_row("v", 4, 10)]
    assert ("000:base@native", 4, None) in short_warmups(rows)


def test_nothing_is_set_aside_without_counts_without_siblings_or_without_tiering():
    assert short_warmups([_row("v", k, None) for k in (1, 2, 3)]) == {}  # .NET Core 3.1: no JIT counter
    assert short_warmups([_row("v", 1, 1000), _row("v", 2, 10)]) == {}  # two processes: no median to trust
    assert short_warmups([_row("v", k, 0) for k in (1, 2, 3)]) == {}  # Native AOT: nothing compiles
    assert short_warmups([_row("v", k, c) for k, c in enumerate((1200, 1100, 1000, 950), 1)]) == {}  # ordinary spread


def _result_row(
    benchmark: str, k: int, compilations: int, ns: float
) -> ResultRow:  # warm-up time in step with its count
    return ResultRow(
        run_id="r",
        cell_id=f"000:{benchmark}@native",
        experiment="000",
        benchmark=benchmark,
        group="g",
        baseline="base",
        lab="dotnet",
        variant="x",
        dataset="d",
        operation="deserialize",
        isa_requested="native",
        cpuset="1",
        profile="default",
        status="ok",
        mean_ns=ns,
        median_ns=ns,
        verification_status="passed",
        round_index=k,
        round_count=10,
        design="paired",
        burst_ns=[ns, ns, ns],
        prewarm_compilations=compilations,
        prewarm_ms=2.3 * compilations,
    )


def test_the_stopping_rule_leaves_a_cut_short_process_out_of_a_groups_precision():
    # four processes agree on a ratio of exactly 2; a fifth, cut short, says 3
    rows = [
        r
        for k in (1, 2, 3, 4)
        for r in (_result_row("base", k, 1000, 100.0), _result_row("v", k, 1000, 200.0 * (1 + 0.001 * k)))
    ]
    rows += [_result_row("base", 5, 100, 100.0), _result_row("v", 5, 100, 300.0)]
    worst, comparable = rows_precision(rows)
    assert comparable == 1 and worst < 0.01
    assert Stopping(2, 10, 0.02).target_rel_ci > worst


def test_the_analysis_marks_cut_short_rows_skipped_and_the_report_names_them():
    frame = pd.DataFrame(
        [
            {**vars(_row(b, k, c)), "status": "ok", "error": None}
            for k, c in enumerate((1285, 1283, 303, 1290), 1)
            for b in ("base", "v")
        ]
    )
    marked = set_aside(frame)
    aside = marked[marked["status"] == "skipped"]
    assert len(aside) == 2 and aside["error"].str.startswith(SET_ASIDE).all()
    assert (frame["status"] == "ok").all()  # the loaded rows themselves are not changed
    line = set_aside_markdown(marked)
    assert "1 processes" in line and "000:g at native on 10.0.12: 1" in line
    assert set_aside_markdown(frame).endswith("none.")
