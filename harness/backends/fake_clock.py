"""A simulated monotonic clock for the run budget (harness/session/rounds/budget.py): it moves only when a fake process
runs, so budget tests take no wall time."""

from __future__ import annotations


class FakeClock:
    """A simulated monotonic clock for the run budget: it moves only when a fake process 'runs'."""

    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now
