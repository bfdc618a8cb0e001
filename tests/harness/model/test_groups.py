"""The machine time a group has used, which its time cap is judged on."""

from types import SimpleNamespace

import pytest

from harness.model.groups import elapsed_s


def _row(
    duration_s: float | None,
    partner: str | None = None,
    extra_rounds_ms: float | None = None,
    lab_warm_ms: float | None = None,
):
    return SimpleNamespace(
        duration_s=duration_s, partner=partner, extra_rounds_ms=extra_rounds_ms, lab_warm_ms=lab_warm_ms
    )


def test_each_process_counts_once_and_extra_rounds_do_not_count():
    assert elapsed_s([_row(2.0), _row(None)]) == 2.0
    assert elapsed_s([_row(2.0, partner="b"), _row(2.0, partner="a")]) == 2.0  # a duet's two processes: once
    # a handed-over process that played 1.5 s of extra rounds while the next one warmed costs what it would have
    assert elapsed_s([_row(3.5, extra_rounds_ms=1500.0), _row(2.0, extra_rounds_ms=0.0)]) == pytest.approx(4.0)
    assert elapsed_s([_row(1.0, extra_rounds_ms=5000.0)]) == 0.0  # never below nothing
    # a warm-up finished on the lab's CPU is not the group's either (the lab's CPU would have waited for it)
    assert elapsed_s([_row(3.5, extra_rounds_ms=500.0, lab_warm_ms=1000.0)]) == pytest.approx(2.0)
