"""`harness run` resolves its plan once: the command resolves it (a bad selection is reported before any engine or
build) and the run uses that plan rather than reading and checking every data file again."""

from __future__ import annotations

import contextlib
import dataclasses

import pytest

from harness.commands import run as run_command_module
from harness.planning import run_plan
from harness.session import runner


def test_a_run_given_its_plan_does_not_resolve_it_again(fake_backend, smoke_options, monkeypatch):
    plan = run_plan.resolve_plan(smoke_options)

    def resolve_again(options):
        raise AssertionError("the plan was resolved a second time")

    monkeypatch.setattr(runner, "resolve_plan", resolve_again)
    summary = runner.execute_run(dataclasses.replace(smoke_options, calibrate=False), fake_backend, plan)
    assert (summary.directory / "results.jsonl").read_text().count("\n") > 0


def test_the_run_command_resolves_the_plan_once_and_hands_it_to_the_run(fake_backend, smoke_options, monkeypatch):
    calls: list[object] = []
    handed: list[object] = []

    def counting_resolve(options):
        calls.append(options)
        return run_plan.resolve_plan(options)

    def fake_execute(options, backend, plan=None):
        handed.append(plan)
        raise _Stop

    monkeypatch.setattr(run_command_module, "resolve_plan", counting_resolve)
    monkeypatch.setattr(runner, "resolve_plan", counting_resolve)
    monkeypatch.setattr(run_command_module, "run_options", lambda args, **kw: smoke_options)
    monkeypatch.setattr(run_command_module, "engine_for_run", lambda *a, **kw: contextlib.nullcontext())
    monkeypatch.setattr(run_command_module, "select_backend", lambda *a, **kw: (fake_backend, "backend: fake"))
    monkeypatch.setattr(run_command_module, "check_run", lambda plan, backend: [])
    monkeypatch.setattr(run_command_module, "execute_run", fake_execute)
    args = _Args()
    with pytest.raises(_Stop):
        run_command_module.run_command(args)
    assert len(calls) == 1 and handed and handed[0] is not None


class _Stop(Exception):
    pass


class _Args:
    """What run_command reads of its parsed arguments (the rest comes from run_options, replaced above)."""

    host = None
    run_id = resume = results_dir = cpuset = harness_cpuset = warm_cpuset = budget = budget_of = max = None
    no_build = no_calibration = wait = own_engine = container_per_process = strict = until_decided = False
    backend = "host"
    bases = platform = host_id = None


def test_budget_of_a_run_is_its_machine_time_and_a_run_that_measured_nothing_is_refused(
    smoke_options, fake_backend, tmp_path, capsys
):
    from harness.commands.run import machine_minutes_of
    from harness.model.errors import HarnessError
    from harness.model.folder.store import RunStore
    from harness.model.groups import elapsed_s
    from harness.session.runner import execute_run

    run = execute_run(smoke_options, fake_backend).directory
    rows = list(RunStore(run).rows().values())
    assert machine_minutes_of(run) * 60 == pytest.approx(elapsed_s(rows)) and elapsed_s(rows) > 0
    assert f"the machine time of run {run.name} (equal machine time)" in capsys.readouterr().err
    empty = tmp_path / "empty-run"
    empty.mkdir()
    with pytest.raises(HarnessError, match="no measured process"):
        machine_minutes_of(empty)
