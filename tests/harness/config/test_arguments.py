"""Values typed on the command line are checked as they are read: each bad one is argparse's `error:` line and exit 2,
before anything is planned, built or written (harness/config/arguments.py)."""

from __future__ import annotations

import pytest

from analysis.cli import main as analysis_main
from harness.cli import main

# A run's bad value comes before `--backend fake`, which argparse refuses too (not a backend's name): should the value
# pass, the run stops there, with another error than the one expected, before anything is planned or measured.
BAD = {
    "a run id that climbs out of results/": (["run", "--run-id", "../x", "--backend", "fake"], "is not a run id"),
    "a run id with a slash": (["run", "--run-id", "a/b", "--backend", "fake"], "is not a run id"),
    "a hidden run id": (["run", "--run-id", ".x", "--backend", "fake"], "is not a run id"),
    "a run id ending in a newline": (["run", "--run-id", "x\n", "--backend", "fake"], "is not a run id"),
    "a run id of 200 characters": (["run", "--run-id", "a" * 200, "--backend", "fake"], "is not a run id"),
    "an ISA list of nothing": (["plan", "--isa", ","], "names nothing"),
    "an ISA list with an empty name": (["plan", "--isa", "avx2,,sse2"], "an empty name"),
    "a runtime with a path": (["plan", "--runtime", "../../bin/sh"], "is not a comma-separated list of names"),
    "an experiment with a space": (["plan", "--experiment", "00 1"], "is not a comma-separated list of names"),
    "a benchmark ending in a newline": (["plan", "--benchmark", "stj\n"], "is not a comma-separated list of names"),
    "a budget of inf": (["run", "--budget", "inf", "--backend", "fake"], "is not a budget"),
    "a budget of nan": (["run", "--budget", "nan", "--backend", "fake"], "is not a budget"),
    "a negative budget": (["run", "--budget", "-5", "--backend", "fake"], "is not a budget"),
    "a budget of a year": (["run", "--budget", "525600", "--backend", "fake"], "is not a budget"),
    "a budget in words": (["run", "--budget", "an hour", "--backend", "fake"], "is not a number: a budget"),
    "an import id that is a path": (["import", "--id", "../../x", "r.md"], "is not an experiment id"),
    "an import id of letters": (["import", "--id", "abc", "r.md"], "is not an experiment id"),
    "a lab with a path": (["images", "--lab", "../lab"], "is not a comma-separated list of names"),
}


@pytest.mark.parametrize("case", BAD, ids=list(BAD))
def test_a_bad_value_is_refused_as_it_is_read(case, capsys, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    argv, expected = BAD[case]
    with pytest.raises(SystemExit) as exit_:
        main(argv)
    assert exit_.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and expected in err, err
    assert not any(tmp_path.iterdir()), "nothing written"


@pytest.mark.parametrize("threshold", ["-1", "0", "1", "inf", "nan", "five"])
def test_a_comparison_threshold_is_a_fraction(threshold, capsys):
    with pytest.raises(SystemExit) as exit_:
        analysis_main(["compare", "a", "b", "--threshold", threshold])
    assert exit_.value.code == 2 and "--threshold" in capsys.readouterr().err


def test_good_values_pass():
    from harness.config.arguments import experiment_id, fraction, minutes, names, run_id

    assert run_id("2026-11-27T14-00-00Z") and names("no-avx512,avx2") and names("10.0.12-aot")
    assert experiment_id("008") and minutes("0") == 0 and minutes("55.5") == 55.5 and fraction("0.05") == 0.05
