"""The warm-up the lab's CPU would wait for, as the run's sharing rule charges it (session/rounds/warm_switch.py)."""

from types import SimpleNamespace

import pytest

from harness.session.rounds.warm_switch import RECENT_PROCESSES, WarmSwitch


def _row(log: str | None, warm_line_ms: float | None):
    return SimpleNamespace(log_path=log, warm_line_ms=warm_line_ms)


def test_a_process_counts_once_whatever_its_cells_and_other_rows_not_at_all():
    switch = WarmSwitch()
    assert switch.seconds() == 0.0  # nothing warmed ahead yet, no earlier run: nothing charged
    switch.add(_row("logs/p1.log", 1600.0))  # a process of two cells: each row its share
    switch.add(_row("logs/p1.log", 1600.0))
    switch.add(_row("logs/p2.log", None))  # not handed over
    switch.add(_row(None, 900.0))  # no process to count it under
    assert switch.seconds() == pytest.approx(3.2)


def test_the_earlier_run_stands_in_until_this_session_has_its_own_and_only_the_latest_count():
    switch = WarmSwitch(earlier_s=2.5)
    assert switch.seconds() == 2.5
    for n in range(RECENT_PROCESSES):
        switch.add(_row(f"logs/old-{n}.log", 10_000.0))
    for n in range(RECENT_PROCESSES):
        switch.add(_row(f"logs/new-{n}.log", 3000.0))
    assert switch.seconds() == pytest.approx(3.0)
