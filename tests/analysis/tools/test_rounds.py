"""Rounds per paired process, read from prefixes of long processes (analysis/tools/rounds.py)."""

from __future__ import annotations

import json
import pathlib

import numpy as np
import pandas as pd
import pytest

from analysis.compute.load import RunData, unknown_run
from analysis.tools.rounds import rounds_summary, rounds_table
from harness.model.errors import HarnessError

ROUNDS = 60


def _run(
    tmp_path: pathlib.Path,
    between_sd: float,
    within_sd: float,
    processes: int = 10,
    wall_s: float = 10.0,
    round_s: float = 0.1,
) -> RunData:
    """A paired group of baseline B and variant V (true ratio 0.8): each process draws its own ratio offset (sd
    `between_sd`), each round its own noise (sd `within_sd`); every process costs `wall_s`, `round_s` of it per round.
    """
    rng = np.random.default_rng(7)
    rows = []
    for p in range(processes):
        folder = tmp_path / "raw" / "g" / f"round-{p + 1}"
        folder.mkdir(parents=True)
        bursts_ms = 0.8 * round_s * ROUNDS * 1e3
        (folder / "process.json").write_text(
            json.dumps({"bursts_ms": bursts_ms, "collections_between_bursts_ms": round_s * ROUNDS * 1e3 - bursts_ms})
        )
        offset = rng.normal(0, between_sd)
        base = 1000 * np.exp(rng.normal(0, 0.01, ROUNDS))
        variant = base * 0.8 * np.exp(offset + rng.normal(0, within_sd, ROUNDS))
        for name, bursts in (("B", base), ("V", variant)):
            rows.append(
                {
                    "status": "ok",
                    "isa_requested": "native",
                    "experiment": "x",
                    "group": "g",
                    "runtime_requested": "10.0.12",
                    "benchmark": name,
                    "baseline": "B",
                    "burst_ns": list(bursts),
                    "duration_s": wall_s / 2,
                    "raw_path": f"raw/g/round-{p + 1}/{name}/samples.json",
                }
            )
    return RunData(tmp_path, pd.DataFrame(rows), {}, unknown_run("t"), [], [], [])


def test_a_prefix_costs_the_process_less_the_rounds_it_would_not_have_run(tmp_path):
    table = rounds_table(_run(tmp_path, 0.01, 0.05), default_rounds=15)
    at = table.set_index("rounds")
    assert at.loc[60, "process_s"] == pytest.approx(10.0)
    assert at.loc[15, "process_s"] == pytest.approx(10.0 - 45 * 0.1)
    assert at.loc[15, "measured_share"] == pytest.approx(0.8 * 1.5 / 5.5)
    # the budget is what the processes cost at the default rounds, so r = 15 affords exactly the processes measured
    assert at.loc[15, "processes_in_budget"] == pytest.approx(10)
    assert at.loc[60, "processes_in_budget"] == pytest.approx(10 * 5.5 / 10.0)


def test_noise_inside_processes_and_a_costly_start_favour_long_processes(tmp_path):
    # 6 s of every 12 s process is start and warm-up: longer processes spend more of the budget measuring
    summary = rounds_summary(
        rounds_table(_run(tmp_path, 0.0, 0.20, processes=40, wall_s=12.0), default_rounds=15)
    ).set_index("rounds")
    assert summary.loc[60, "rel_half_width"] < summary.loc[15, "rel_half_width"] < summary.loc[4, "rel_half_width"]


def test_noise_between_processes_favours_many_short_processes(tmp_path):
    # however long a process runs, it draws one offset: fewer processes carry more of it, and a wider t quantile
    summary = rounds_summary(rounds_table(_run(tmp_path, 0.05, 0.005), default_rounds=15)).set_index("rounds")
    assert summary.loc[60, "rel_half_width"] > summary.loc[15, "rel_half_width"]
    assert summary.loc[60, "measured_share"] > summary.loc[15, "measured_share"]


@pytest.mark.parametrize(
    "process, says",
    [
        ({"collections_between_bursts_ms": 1.0}, "does not give the process's bursts_ms"),
        ({"bursts_ms": "900", "collections_between_bursts_ms": 1.0}, "'bursts_ms' is '900', not a number"),
        ([], "process.json is not a JSON object"),
    ],
)
def test_a_process_file_the_tool_cannot_read_is_an_error_naming_it(tmp_path, process, says):
    run = _run(tmp_path, 0.01, 0.05, processes=3)
    (tmp_path / "raw" / "g" / "round-2" / "process.json").write_text(json.dumps(process))
    with pytest.raises(HarnessError, match=says) as raised:
        rounds_table(run, default_rounds=15)
    assert "round-2/process.json" in str(raised.value) and raised.value.hint


def test_a_row_naming_a_process_folder_outside_the_run_folder_is_an_error(tmp_path):
    run = _run(tmp_path, 0.01, 0.05, processes=3)
    run.rows["raw_path"] = "../../../etc/x/samples.json"
    with pytest.raises(HarnessError, match="names a process folder outside it"):
        rounds_table(run, default_rounds=15)
