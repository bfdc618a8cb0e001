"""The pipeline probe's own parts: a warm process's line read (or its absence refused), and processes per minute of
the lab CPU's time."""

from __future__ import annotations

import subprocess

import pytest

from harness.commands.pipeline_probe import _await_warm, _throughput
from harness.model.errors import HarnessError
from harness.model.stats.overlap import ProbeRow, summary


def _speaking(text: str) -> subprocess.Popen:
    return subprocess.Popen(["printf", text], stdout=subprocess.PIPE, stdin=subprocess.PIPE, text=True)


def test_a_warm_process_is_known_by_the_id_on_its_line(tmp_path):
    process = _speaking("jsonlab-warm 4242 cpu-ms=1800\\n")
    assert _await_warm(process, tmp_path) == 4242
    process.wait()


@pytest.mark.parametrize(
    "text", ["", "error: no dataset\\n", "jsonlab-warm\\n", "jsonlab-warm 12; rm\\n", "jsonlab-warm 4242\\n"]
)
def test_a_process_that_ends_or_says_anything_else_before_it_is_warm_is_an_error_naming_its_log(tmp_path, text):
    process = _speaking(text)
    with pytest.raises(HarnessError, match="before it was warm") as error:
        _await_warm(process, tmp_path)
    assert str(tmp_path) in error.value.hint
    process.wait()


def test_processes_per_minute_of_the_lab_cpus_time_per_condition():
    blocks = [
        {"group": "g", "condition": "plain", "processes": 4, "lab_s": 12.0},
        {"group": "g", "condition": "plain", "processes": 4, "lab_s": 12.0},
        {"group": "g", "condition": "pipelined", "processes": 4, "lab_s": 8.0},
    ]
    assert _throughput(blocks) == [{"group": "g", "processes_per_minute": {"plain": 20.0, "pipelined": 30.0}}]


def test_the_summary_names_its_keys_after_the_conditions_it_compares():
    rows = [
        ProbeRow.of("g", condition, i, 1.0, 0, 0, [[10.0], [5.0 + i]])
        for condition in ("plain", "pipelined")
        for i in range(3)
    ]
    member = summary(rows, ("plain", "pipelined"))[1]
    assert member["ratio_pipelined_vs_plain"] == pytest.approx(1.0)
    assert "plain_ratio_sd_pct" in member and "time_pipelined_vs_plain" in member


def test_a_probe_folder_must_be_a_plain_name():
    from harness.cli import main

    with pytest.raises(SystemExit) as exited:
        main(["pipeline-probe", "results/x", "g", "--run-id", "/tmp/elsewhere"])
    assert exited.value.code == 2
