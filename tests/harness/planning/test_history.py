"""What earlier runs teach the plan: per-cell cost per round, the gap between processes, once-per-run phases."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib

import pytest

from harness.model.cells import JobSettings
from harness.model.folder.run_records import RunRecord
from harness.planning.estimate import learned_round_seconds
from harness.planning.history import gap_factor, load_history, run_cell_costs

JOB = JobSettings(prewarm_ms=300, warmup_count=1, iteration_count=3, iteration_time_ms=20)


def _row(cell: str, round_index: int, duration: float | None, start: str, **extra) -> dict:
    return {
        "cell_id": cell,
        "measure": "steady",
        "round_index": round_index,
        "duration_s": duration,
        "started_at": f"2026-11-26T10:{start}+00:00",
        "log_path": f"logs/{cell}.{round_index}.{start}.log",
        "status": "ok",
        **extra,
    }


def _write_run(
    results: pathlib.Path,
    name: str,
    rows: list[dict],
    *,
    design="interleaved",
    job=JOB,
    age_s=0.0,
    timeline: list[dict] = (),
) -> None:
    folder = results / name
    folder.mkdir(parents=True)
    run = RunRecord(run_id=name, profile="default", design=design, stopping={}, job=job, cells=[])
    (folder / "run.json").write_text(json.dumps(run.to_dict()))
    (folder / "results.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows) + '{"cell_id": "cut sho')
    phases = [{"what": "", "ended_at": "2026-11-26T10:00:00+00:00", **t} for t in timeline]
    (folder / "timeline.jsonl").write_text("".join(json.dumps(t) + "\n" for t in phases) + '{"phase": "rep')
    stamp = 1_800_000_000 - age_s
    os.utime(folder / "results.jsonl", (stamp, stamp))


def test_the_gap_between_process_starts_is_learned_and_pauses_are_left_out():
    rows = [
        _row("a", 1, 2.0, "00:00"),
        _row("b", 1, 2.0, "00:03"),  # 3 s after a 2 s process: the harness and the RSS reading cost 1 s
        _row("a", 2, 2.0, "00:06"),
        _row("b", 2, 2.0, "02:00"),  # a calibration or a pause: not a process's cost
    ]
    assert gap_factor(rows) == pytest.approx(6.0 / 4.0)
    assert gap_factor([]) == 1.0


def test_a_cell_costs_the_median_of_its_rounds_with_replaced_processes_and_skipped_cells_cost_nothing():
    rows = [
        _row("a", 1, 2.0, "00:00"),
        _row("a", 2, 2.0, "00:02"),
        _row("a", 2, 2.0, "00:04", status="disturbed", replaced=1),  # round 2 ran twice
        _row("a", 3, 2.2, "00:06"),
        _row("n/a", 1, None, "00:08", status="skipped"),
        {"cell_id": "cold", "measure": "cold", "duration_s": 9.0, "round_index": 1},
    ]
    costs = run_cell_costs(rows)
    assert costs == {"a": pytest.approx(2.2), "n/a": 0.0}, "median of 2.0, 4.0, 2.2 at a gap factor of 1"


def test_each_cell_is_read_from_the_newest_run_of_the_same_design_and_job(tmp_path):
    results = tmp_path / "results"
    _write_run(
        results,
        "old",
        [_row("a", 1, 5.0, "00:00"), _row("b", 1, 7.0, "00:05")],
        age_s=100,
        timeline=[{"phase": "prepare", "seconds": 50.0}],
    )
    _write_run(
        results,
        "new",
        [_row("a", 1, 3.0, "00:00")],
        age_s=10,
        timeline=[{"phase": "prepare", "seconds": 4.0}, {"phase": "report", "seconds": 20.0}],
    )
    _write_run(
        results,
        "other-job",
        [_row("a", 1, 99.0, "00:00"), _row("c", 1, 99.0, "00:05")],
        job=dataclasses.replace(JOB, iteration_count=30),
    )
    _write_run(results, "other-design", [_row("c", 1, 99.0, "00:00")], design="paired")
    history = load_history(results, "interleaved", JOB, ["a", "b", "c"])
    assert history is not None
    assert history.seconds == {"a": 3.0, "b": 7.0}, "a from the newest run, b from the older, c from none that match"
    assert history.runs == ("new", "old")
    assert history.phases == {"prepare": 4.0, "report": 20.0}, "the once-per-run phases of the newest run read"
    assert history.describe(["a", "b", "c"]) == "learned for 2 of 3 cells from runs new, old"
    assert load_history(results, "interleaved", JOB, ["z"]) is None
    assert load_history(tmp_path / "nowhere", "interleaved", JOB, ["a"]) is None
    # a job that differs only in the extra rounds a handed-over process plays is the same method: the same pace
    extended = dataclasses.replace(JOB, extend_rounds=45)
    assert load_history(results, "interleaved", extended, ["a", "b"]).seconds == {"a": 3.0, "b": 7.0}


def test_a_round_mixes_learned_costs_with_the_modelled_share_of_cells_not_seen_before(tmp_path):
    results = tmp_path / "results"
    _write_run(results, "r", [_row("a", 1, 3.0, "00:00"), _row("b", 1, 1.0, "00:03")])
    history = load_history(results, "interleaved", JOB, ["a", "b"])
    assert learned_round_seconds(["a", "b"], 100.0, history) == pytest.approx(4.0)
    assert learned_round_seconds(["a", "b", "c", "d"], 100.0, history) == pytest.approx(4.0 + 50.0)
    assert learned_round_seconds(["a"], 10.0, None) == 10.0
    assert learned_round_seconds(["a", "b"], 100.0, history, lab_cpus=2) == pytest.approx(
        8.0
    ), "learned seconds are timeline seconds: a caller that divides by its CPUs gets them back"


def test_the_plan_knows_up_front_which_cells_no_isa_switch_can_run_and_does_not_cost_them(tmp_path):
    from harness.planning.plan_summary import plan_summary
    from harness.planning.run_plan import RunOptions, resolve_plan

    options = RunOptions(profile="cpp", results_dir=tmp_path / "results", check_tools=False, build=False)
    plan = resolve_plan(options)
    by_id = {c.cell_id: c for c in plan.cells}
    march_native = [c for c in plan.cells if c.runtime == "gcc-12.2.0-native"]
    assert {c.cell_id for c in march_native if c.isa_level != "native"} <= plan.not_applicable
    assert all(by_id[cell].isa_level != "native" for cell in plan.not_applicable)
    assert f"({len(plan.not_applicable)} not applicable: no ISA switch)" in plan_summary(plan)
    everything = dataclasses.replace(plan, not_applicable=frozenset())
    minutes = [float(p.estimate().split("about ")[1].split(" min")[0]) for p in (plan, everything)]
    assert minutes[0] < minutes[1], "cells that cannot run add nothing to the estimate"


def test_an_earlier_run_folder_with_hostile_values_costs_its_lines_never_the_plan(tmp_path):
    results = tmp_path / "results"
    rows = [
        _row("a", 1, 3.0, "00:00"),
        _row("b", 1, "slow", "00:03"),  # not a time: the row is not read
        {**_row("c", 1, 2.0, "00:06"), "started_at": "yesterday"},  # read, left out of the gap factor
        {**_row("d", 1, 2.0, "00:09"), "round_index": [1]},
        ["not", "a", "row"],
    ]
    _write_run(results, "damaged", rows, timeline=[{"phase": "prepare", "seconds": "long"}])
    history = load_history(results, "interleaved", JOB, ["a", "b", "c", "d"])
    assert history is not None and history.seconds == {"a": 3.0, "c": 2.0} and history.phases == {}
    (results / "damaged" / "run.json").write_text("[1, 2]")
    assert load_history(results, "interleaved", JOB, ["a"]) is None, "a run.json that is no run record: not read"
