"""The pipeline's pace (harness/planning/throughput.py), checked on paper for 2, 8, 16 and 64 CPUs."""

from __future__ import annotations

import pytest

from harness.model.cells import JobSettings
from harness.planning.throughput import ProcessCosts, best_split, pace, process_costs

#: A process as the default run of 2026-12-06 measured about: 1.3 s of prewarm and 0.9 s of start and verification on
#: the warm CPU, 2.7 s on the lab's.
COSTS = ProcessCosts(lab_s=2.7, warm_s=4.0, processes=100)


def test_one_lab_cpu_and_one_warm_cpu_go_at_the_slower_sides_pace_and_the_lab_waits_the_rest():
    two = pace(COSTS, 1, 1)
    assert two.per_minute == pytest.approx(15.0)  # 60 / 4.0: the warm side sets the pace
    assert two.lab_waiting == pytest.approx(1 - 2.7 / 4.0)  # 32.5 %
    quick = pace(ProcessCosts(2.7, 1.9, 10), 1, 1)
    assert quick.per_minute == pytest.approx(60 / 2.7) and quick.lab_waiting == 0.0
    assert "1 lab CPU, 1 warm CPU: about 15 processes a minute, the lab's CPUs waiting 32%" == two.text()


@pytest.mark.parametrize(
    "cpus, lab, warm, per_minute",
    [
        (2, 1, 1, 15.0),
        (8, 3, 5, 60 * 3 / 2.7),  # min(3 / 2.7, 5 / 4) = 1.11 a second; 4 + 4 gives 1.0
        (16, 7, 9, 60 * 9 / 4.0),  # min(7 / 2.7, 9 / 4) = 2.25; 6 + 10 gives 2.22
        (64, 26, 38, 60 * 38 / 4.0),  # min(26 / 2.7, 38 / 4) = 9.5; 25 + 39 gives 9.26
    ],
)
def test_the_best_split_of_a_bigger_machine(cpus, lab, warm, per_minute):
    best = best_split(COSTS, cpus)
    assert (best.lab, best.warm) == (lab, warm)
    assert best.per_minute == pytest.approx(per_minute)


def test_a_machine_without_two_cpus_has_no_pipeline():
    with pytest.raises(ValueError):
        best_split(COSTS, 1)
    with pytest.raises(ValueError):
        pace(COSTS, 1, 0)


def test_costs_are_read_per_handed_over_process_from_a_runs_rows():
    rows = [
        # one paired process of two cells: its wall time split between its rows, its warm parts on each
        {
            "log_path": "p1",
            "duration_s": 1.5,
            "rewarm_ms": 200,
            "start_to_main_ms": 100,
            "verify_ms": 400,
            "prewarm_ms": 1500,
        },
        {
            "log_path": "p1",
            "duration_s": 1.5,
            "rewarm_ms": 200,
            "start_to_main_ms": 100,
            "verify_ms": 400,
            "prewarm_ms": 1500,
        },
        {
            "log_path": "p2",
            "duration_s": 2.0,
            "rewarm_ms": 100,
            "start_to_main_ms": 100,
            "verify_ms": 300,
            "prewarm_ms": 1000,
        },
        {"log_path": "p3", "duration_s": 9.0, "rewarm_ms": None},  # not handed over (paired): not a pipeline's process
    ]
    costs = process_costs(rows, "run-1")
    assert costs == ProcessCosts(lab_s=2.5, warm_s=1.7, processes=2, run="run-1")
    assert process_costs([rows[3]]) is None


def test_the_time_to_the_warm_line_is_the_warm_cost_and_extra_rounds_are_not_the_lab_cost():
    # one process of two cells (schema 11): each row a share of its warm line and of its extra rounds
    shared = {"log_path": "p1", "rewarm_ms": 100, "start_to_main_ms": 100, "verify_ms": 400, "prewarm_ms": 1500}
    rows = [
        {**shared, "duration_s": 2.0, "warm_line_ms": 1600.0, "extra_rounds_ms": 1000.0},
        {**shared, "duration_s": 2.0, "warm_line_ms": 1600.0, "extra_rounds_ms": 1000.0},
    ]
    costs = process_costs(rows)
    assert costs is not None
    assert costs.warm_s == pytest.approx(3.2)  # not the 2.0 s its lab said it spent before its warm line
    assert costs.lab_s == pytest.approx(2.0)  # 4 s on the lab's CPU, 2 of them extra rounds


def test_the_plan_states_the_pace_of_a_pipelined_run_and_what_a_bigger_machine_would_pace():
    from types import SimpleNamespace

    from harness.planning.designs import DESIGNS
    from harness.planning.history import CostHistory
    from harness.planning.plan_summary import _pace

    history = CostHistory({}, ("run-1",), {}, ProcessCosts(2.7, 4.0, 100, "run-1"))
    job = JobSettings(burst_rounds=15)
    pipelined = SimpleNamespace(design=DESIGNS["paired-pipelined"], history=history, job=job)
    text = _pace(pipelined, cpus=2)  # type: ignore[arg-type]
    assert text == (
        "pace: 1 lab CPU, 1 warm CPU: about 15 processes a minute, the lab's CPUs waiting 32% (run run-1: 2.7 s on "
        "the lab's CPU and 4.0 s to warm, medians over 100 processes)"
    )
    extending = SimpleNamespace(design=DESIGNS["paired-pipelined"], history=history, job=JobSettings(extend_rounds=45))
    assert "the lab's CPUs playing extra rounds 32%" in _pace(extending, cpus=2)  # type: ignore[arg-type]
    eight = _pace(pipelined, cpus=8)  # type: ignore[arg-type]
    assert "this machine's 8 CPUs, split for the same costs: 3 lab CPUs, 5 warm CPUs: about 67 processes" in eight
    assert _pace(SimpleNamespace(design=DESIGNS["paired"], history=history, job=job)) == ""  # type: ignore[arg-type]
    unlearned = SimpleNamespace(design=DESIGNS["paired-pipelined"], history=None, job=job)
    assert _pace(unlearned) == ""  # type: ignore[arg-type]


def test_a_warm_up_finished_on_a_free_lab_cpu_fills_the_wait_but_paces_the_same():
    # one process's warm-up is sequential: moved to the lab's CPU it is not done sooner (run e002w1 against e002w0)
    two = pace(COSTS, 1, 1, shares=True)
    assert two.per_minute == pytest.approx(pace(COSTS, 1, 1).per_minute)
    assert "the lab's CPUs finishing warm-ups 32%" in two.text()
    assert best_split(COSTS, 8, shares=True).per_minute == pytest.approx(best_split(COSTS, 8).per_minute)


def test_a_warm_up_finished_on_the_lab_cpu_is_warm_cost_not_lab_cost():
    rows = [
        {"log_path": "p1", "rewarm_ms": 50, "duration_s": 2.5, "warm_line_ms": 2700.0, "lab_warm_ms": 1000.0},
    ]
    costs = process_costs(rows)
    assert costs is not None and costs.lab_s == pytest.approx(1.5) and costs.warm_s == pytest.approx(2.7)
