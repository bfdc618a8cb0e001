"""`harness lab-checks`: every lab's own checks from its folder; a failure names its fix and the others still run."""

import argparse

import pytest

from harness.commands import lab_checks
from harness.config.lab.lab_checks import LabCheck, LabChecks
from harness.model.errors import UnknownNameError


def _labs(tmp_path):
    (tmp_path / "a").mkdir(exist_ok=True)
    (tmp_path / "b").mkdir(exist_ok=True)
    return [
        LabChecks("a", tmp_path / "a", False, (LabCheck("pwd > where; false"), LabCheck("touch ran")), ()),
        LabChecks("b", tmp_path / "b", False, (), (LabCheck("exit 3", fix="fmt it"),)),
    ]


def test_each_check_runs_in_its_lab_folder_and_a_failure_does_not_stop_the_others(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lab_checks, "load_lab_checks", lambda: _labs(tmp_path))
    assert lab_checks.lab_checks_command(argparse.Namespace(kind="test", lab=None)) == 1
    assert (tmp_path / "a" / "where").read_text().strip() == str(tmp_path / "a")
    assert (tmp_path / "a" / "ran").exists()  # the second check ran after the first failed
    out = capsys.readouterr()
    assert "lab-checks test: 2 run, 1 failed" in out.out and "lab a: test failed: pwd > where; false" in out.err


def test_a_failing_lint_prints_the_fix_its_lab_names_and_one_lab_can_be_chosen(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(lab_checks, "load_lab_checks", lambda: _labs(tmp_path))
    assert lab_checks.lab_checks_command(argparse.Namespace(kind="lint", lab=["b"])) == 1
    assert "-- fix: fmt it" in capsys.readouterr().err
    assert lab_checks.lab_checks_command(argparse.Namespace(kind="lint", lab=["a"])) == 0
    with pytest.raises(UnknownNameError):
        lab_checks.lab_checks_command(argparse.Namespace(kind="lint", lab=["c"]))
