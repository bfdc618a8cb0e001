"""Bisecting a version factor: the served versions between the lab's and the write-up's, halved until two neighbours
are measured one like each end; a middle reading like both ends (or neither) stops it, saying so."""

from __future__ import annotations

import pytest

from harness.model.errors import ConfigError
from harness.model.stats.bisection import Reading, between, bisect

SERVED = ["12.0.1", "12.0.3", "13.0.1", "13.0.2", "13.0.3", "13.0.4"]


def _measure(ratios: dict[str, tuple[float, float]]):
    measured = []

    def measure(version: str) -> Reading:
        ratio, half = ratios[version]
        measured.append(version)
        return Reading(version, ratio, ratio - half, ratio + half, f"step-{version}")

    return measure, measured


def test_between_keeps_the_registrys_order_from_the_labs_end_and_refuses_an_unserved_end():
    assert between(SERVED, "13.0.4", "12.0.3") == ("13.0.4", "13.0.3", "13.0.2", "13.0.1", "12.0.3")
    assert between(SERVED, "12.0.3", "13.0.1") == ("12.0.3", "13.0.1")
    with pytest.raises(ConfigError, match="12.0.2 is not among the versions the registry serves"):
        between(SERVED, "13.0.4", "12.0.2")


def test_the_release_that_changed_the_ratio_is_found_in_log2_steps():
    # 1.0x up to 13.0.2, 2.0x from 13.0.1 down (the lab's end 13.0.4, the write-up's 12.0.3)
    ratios = {v: (1.0, 0.02) for v in ("13.0.4", "13.0.3", "13.0.2")} | {v: (2.0, 0.02) for v in ("13.0.1", "12.0.3")}
    measure, measured = _measure(ratios)
    result = bisect("Newtonsoft.Json", between(SERVED, "13.0.4", "12.0.3"), measure)
    assert result.found and (result.old, result.new) == ("13.0.2", "13.0.1")
    assert measured == ["13.0.4", "12.0.3", "13.0.2", "13.0.1"]  # both ends, then halves
    assert result.summary().startswith("the ratio changed between Newtonsoft.Json 13.0.2 and 13.0.1")


def test_a_middle_reading_like_both_ends_stops_the_bisection_with_the_range_it_had():
    ratios = {"13.0.4": (1.0, 0.02), "13.0.3": (1.0, 0.02), "13.0.2": (1.5, 0.6), "13.0.1": (2.0, 0.02)}
    ratios["12.0.3"] = (2.0, 0.02)
    measure, _ = _measure(ratios)
    result = bisect("Newtonsoft.Json", between(SERVED, "13.0.4", "12.0.3"), measure)
    assert not result.found and "measured like both ends" in result.undecided
    assert (result.old, result.new) == ("13.0.4", "12.0.3")


def test_ends_that_overlap_are_no_change_to_bisect():
    measure, measured = _measure({"13.0.4": (1.0, 0.05), "13.0.3": (1.02, 0.05)})
    result = bisect("Newtonsoft.Json", ["13.0.4", "13.0.3"], measure)
    assert not result.found and "the version does not move the ratio here" in result.undecided
    assert measured == ["13.0.4", "13.0.3"]
