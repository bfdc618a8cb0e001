"""When a process counts as disturbed: over 5% of its wall time elsewhere, beyond what the 10 ms counters can read."""

from types import SimpleNamespace

from harness.model.stats.interference import COUNTER_RESOLUTION_MS, disturbance


def _row(other_ms: float, wall_s: float, cells: int | None = None, steal_ms: float = 0.0):
    return SimpleNamespace(cpu_other_ms=other_ms, steal_ms=steal_ms, duration_s=wall_s, process_cells=cells)


def test_a_few_counter_ticks_on_a_short_process_are_not_a_disturbance():
    # smoke run 2026-11-26T03-22-01Z: 0.2 s processes reading 10 ms of 'other' were 5% 'disturbed'
    assert disturbance(_row(10.0, 0.2)) is None
    assert disturbance(_row(COUNTER_RESOLUTION_MS + 9.0, 0.2)) is None  # 4.5% beyond the resolution: not over 5%
    assert disturbance(_row(60.0, 0.2)) == 0.3


def test_a_long_process_is_judged_on_its_share_and_steal_counts():
    assert disturbance(_row(200.0, 4.0)) is None  # 5%, less the resolution
    assert disturbance(_row(100.0, 4.0, steal_ms=200.0)) == 0.075


def test_a_cell_of_a_paired_process_carries_its_share_of_the_resolution():
    # a 3-cell process of 0.6 s with 45 ms elsewhere: each row holds 15 ms of 0.2 s; (45 - 30) / 600 = 2.5%
    assert disturbance(_row(15.0, 0.2, cells=3)) is None
    assert disturbance(_row(50.0, 0.2, cells=3)) == 0.25
    assert disturbance(_row(10.0, 0.2, cells=float("nan"))) is None
