"""Why a wide group is wide: its widest ratio's spread between processes beside what each process knew of its own
ratio."""

import math
import random

import pandas as pd
import pytest

from analysis.compute.spread import ratio_spread, two_speeds, wide_groups

ROUNDS = 8


def _rows(
    per_process: list[float], burst_noise: float, aa_per_process: list[float] | None = None, paired: bool = True
) -> pd.DataFrame:
    """A group: baseline 'b' at 100 ns, variant 'v' at 100 × per_process[k] ns in process k, bursts alternating by
    ±burst_noise;
    with aa_per_process, an A/A copy of 'b' at 100 × that factor."""
    rows = []

    def add(benchmark: str, k: int, level: float, noise: float) -> None:
        bursts = [level * (1 + noise * (1 if i % 2 else -1)) for i in range(ROUNDS)] if paired else None
        rows.append(
            {
                "benchmark": benchmark,
                "baseline": "b",
                "round_index": k + 1,
                "partner": None,
                "median_ns": level,
                "burst_ns": bursts,
                "isa_requested": "native",
                "experiment": "001",
                "group": "g",
                "runtime_requested": "8.0.0",
                "status": "ok",
                "design": "paired" if paired else "interleaved",
                "invocation_count": 40,
            }
        )

    for k, factor in enumerate(per_process):
        add("b", k, 100.0, 0.0)
        add("v", k, 100.0 * factor, burst_noise)
        if aa_per_process:
            add("b~aa", k, 100.0 * aa_per_process[k], 0.0)
    return pd.DataFrame(rows)


SPREAD = [0.8, 1.2, 0.8, 1.2, 0.8, 1.2]


def test_processes_that_knew_their_ratio_but_disagree_are_named_as_such_and_the_aa_copy_points_at_the_process():
    spread = ratio_spread(_rows(SPREAD, 0.01, aa_per_process=SPREAD), "v", "b")
    assert spread.processes == 6
    assert spread.between == pytest.approx(pd.Series([math.log(x) for x in SPREAD]).std())
    assert spread.within < 0.01
    reason = spread.reason("paired")
    assert reason.startswith("processes disagree") and "A/A copy spreads" in reason
    assert "A/A" not in ratio_spread(_rows(SPREAD, 0.01), "v", "b").reason("paired")


def test_a_process_that_could_not_know_its_own_ratio_is_named_noisy_bursts():
    reason = ratio_spread(_rows([1.0, 1.02, 0.98, 1.0, 1.01, 0.99], 0.30), "v", "b").reason("paired")
    assert reason.startswith("noisy bursts") and "40 calls per burst" in reason


def test_separate_process_designs_name_the_design():
    reason = ratio_spread(_rows(SPREAD, 0.0, paired=False), "v", "b").reason("interleaved")
    assert "interleaved design" in reason


def test_only_groups_beyond_the_limit_are_listed():
    rows = _rows(SPREAD, 0.01)
    cells = pd.DataFrame(
        [
            {
                "benchmark": "v",
                "baseline": "b",
                "status": "ok",
                "comparison_void": False,
                "ratio_rel_ci99": 0.3,
                "isa_requested": "native",
                "experiment": "001",
                "group": "g",
                "runtime_requested": "8.0.0",
            }
        ]
    )
    listed = wide_groups(rows, cells, limit=0.05)
    assert len(listed) == 1 and listed[0][0].startswith("001/g at native · 8.0.0 (±30.0%)")
    assert wide_groups(rows, cells, limit=0.5) == []


def test_a_side_whose_processes_ran_at_two_speeds_is_named_with_both_clusters():
    # run 2026-11-25T22-37-24Z, 003 deserialize-big on .NET 10: System.Text.Json's per-process times (ms)
    stj = [6.63, 4.25, 4.49, 6.31, 6.45, 6.16, 4.00]
    split = two_speeds("stj", [1e6 * v for v in stj])
    assert split is not None
    assert split.fast == (4.00e6, 4.25e6, 4.49e6) and len(split.slow) == 4
    assert split.apart == pytest.approx(6.38 / 4.25, rel=1e-3)
    assert split.text().startswith("stj ran at one of two speeds, 3 processes at 4.000–4.490 ms and 4 at")
    reason = ratio_spread(_rows([v / 7.4 for v in stj], 0.01), "v", "b").reason("paired")
    assert "v ran at one of two speeds" in reason and "b's processes spread 0.0%" in reason


def test_one_process_apart_from_the_others_is_named_as_one():
    split = two_speeds("v", [100.0, 101.0, 99.0, 102.0, 100.5, 98.5, 131.0])
    assert split is not None and split.slow == (131.0,)
    assert split.text().startswith("one of v's 7 processes ran 1.31× slower than the others (131.0 ns against")
    # under SINGLE_PROCESS_CLUSTER_FROM processes, one process alone is not a second speed
    assert two_speeds("v", [100.0, 101.0, 99.0, 102.0, 131.0]) is None


@pytest.mark.parametrize(
    "per_process",
    [
        [100.0, 102.0, 104.0, 106.0, 108.0, 110.0, 112.0, 114.0],  # evenly spread: one speed
        [100.0, 100.5, 101.0, 101.5, 103.0, 103.5, 104.0],  # a 1.5% gap: below MIN_SPEED_GAP
        [100.0, 101.0, 102.0],  # too few processes to tell
    ],
)
def test_one_speed_is_not_split(per_process):
    assert two_speeds("v", per_process) is None


def test_two_speeds_stay_rare_in_normal_samples():
    rng = random.Random(7)
    trials = 2000
    false = sum(
        two_speeds("v", [100.0 * math.exp(rng.gauss(0, 0.05)) for _ in range(8)]) is not None for _ in range(trials)
    )
    assert false / trials < 0.02
