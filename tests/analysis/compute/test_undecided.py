"""Why a verdict is inconclusive (analysis/compute/verdicts/undecided.py)."""

from __future__ import annotations

import dataclasses

import pandas as pd
import pytest

from analysis.compute.load import unknown_run
from analysis.compute.verdicts.undecided import undecided_markdown, undecided_table


def _verdict(
    published: float,
    point: float,
    lower: float | None,
    upper: float | None,
    verdict: str = "inconclusive",
    pairs: int | None = 10,
    primary: bool = True,
    metric: str = "time",
) -> dict:
    return {
        "experiment": "004",
        "scenario": "s",
        "published_variant": f"v{published}-{point}",
        "published_ratio": published,
        "measured_ratio": point,
        "measured_ratio_lower": lower,
        "measured_ratio_upper": upper,
        "pairs": pairs,
        "verdict": verdict,
        "primary": primary,
        "metric": metric,
    }


def test_each_inconclusive_verdict_gets_its_edge_distance_and_reason():
    verdicts = pd.DataFrame(
        [
            _verdict(0.50, 0.426, 0.414, 0.438),  # on the lower edge (0.425)
            _verdict(0.50, 0.415, 0.400, 0.430),  # 2.4% below the edge, ±3.6%: decidable
            _verdict(1.00, 1.00, 0.70, 1.40),  # both edges inside the interval
            _verdict(1.00, 1.02, None, None, pairs=1),  # one process
            _verdict(0.50, 0.50, 0.49, 0.51, verdict="reproduced"),  # not inconclusive: not listed
            _verdict(0.50, 0.43, 0.42, 0.44, primary=False),  # another ISA level: not listed
        ]
    )
    table = undecided_table(verdicts).set_index("published_variant")
    assert len(table) == 4
    on_edge = table.loc["v0.5-0.426"]
    assert on_edge["edge"] == pytest.approx(0.425) and on_edge["distance"] < 0.02
    assert on_edge["reason"].startswith("on the edge")
    decidable = table.loc["v0.5-0.415"]
    assert decidable["reason"] == "decidable with more processes"
    # ±3.6% against a 2.4% distance: about (3.6 / 2.4)² ≈ 2.3× the 10 processes
    assert 20 <= decidable["processes_to_decide"] <= 25
    assert table.loc["v1.0-1.0", "reason"].startswith("wide")
    assert table.loc["v1.0-1.02", "reason"] == "no interval (one process)"


def test_the_section_counts_reasons_and_never_prints_absurd_process_counts():
    verdicts = pd.DataFrame([_verdict(0.50, 0.42501, 0.414, 0.438), _verdict(0.50, 0.415, 0.400, 0.430)])
    text = undecided_markdown(verdicts, dataclasses.replace(unknown_run("t"), stopping={"target_rel_ci": 0.02}))
    assert "Why 2 verdicts are inconclusive" in text
    assert "1 on the edge" in text and "1 decidable with more processes" in text
    assert "over 100× the processes" in text


def test_no_inconclusive_verdict_no_section():
    assert (
        undecided_markdown(pd.DataFrame([_verdict(0.5, 0.5, 0.49, 0.51, verdict="reproduced")]), unknown_run("t")) == ""
    )
