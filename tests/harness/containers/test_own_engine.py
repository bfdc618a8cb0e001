"""The lab's own Docker engine for one run (harness/containers/own_engine.py): started only when needed and allowed,
stopped only when started."""

from __future__ import annotations

import subprocess

import pytest

from harness.containers.own_engine import engine_for_run, start_if_needed


class Script:
    """containers/dockerd.sh stand-in: records its calls, and 'start' makes the engine answer (or fails)."""

    def __init__(self, starts: bool = True) -> None:
        self.calls: list[str] = []
        self.running = False
        self.starts = starts

    def __call__(self, action: str) -> subprocess.CompletedProcess[str]:
        self.calls.append(action)
        if action == "start" and not self.starts:
            return subprocess.CompletedProcess([], 1, "", "error: dockerd exited; see results/dockerd/dockerd.log")
        self.running = action == "start"
        return subprocess.CompletedProcess([], 0, "", "")


def _probes(script: Script, root: bool = True, dockerd: bool = True, answering: bool = False, layers: str = "") -> dict:
    return {
        "is_root": lambda: root,
        "which": lambda name: "/usr/sbin/dockerd" if dockerd else None,
        "engine_answers": lambda: answering or script.running,
        "can_make_images": lambda: layers,
    }


def test_a_run_starts_the_labs_own_engine_when_none_answers_and_stops_it_after():
    script, lines = Script(), []
    with engine_for_run("auto", "auto", report=lines.append, script=script, **_probes(script)) as start:
        assert start.started and script.running
    assert script.calls == ["start", "stop"] and not script.running
    assert (
        lines[0].startswith("started the lab's own Docker engine")
        and lines[-1] == "stopped the lab's own Docker engine"
    )


def test_the_engine_is_stopped_when_the_run_fails_or_is_interrupted():
    script = Script()
    with pytest.raises(KeyboardInterrupt):
        with engine_for_run("auto", "auto", report=lambda _: None, script=script, **_probes(script)):
            raise KeyboardInterrupt
    assert script.calls == ["start", "stop"]


def test_an_engine_that_answers_already_is_used_and_never_stopped():
    script = Script()
    with engine_for_run(
        "auto", "auto", report=lambda _: None, script=script, **_probes(script, answering=True)
    ) as start:
        assert not start.started
    assert script.calls == []


@pytest.mark.parametrize("backend, choice", [("host", "auto"), ("docker", "auto"), ("auto", "never")])
def test_nothing_is_started_unless_the_backend_is_automatic_and_starting_is_allowed(backend, choice):
    script = Script()
    assert start_if_needed(backend, choice, script=script, **_probes(script)) == start_if_needed("host", script=script)
    assert script.calls == []


@pytest.mark.parametrize(
    "probes, says",
    [
        ({"root": False}, "needs root"),
        ({"dockerd": False}, "apt-get install docker.io"),
    ],
)
def test_where_it_cannot_start_one_the_run_says_it_runs_on_the_host_why_and_the_fix(probes, says):
    script = Script()
    start = start_if_needed("auto", "auto", script=script, **_probes(script, **probes))
    assert (
        not start.started
        and says in start.note
        and "running on the host" in start.note
        and "just docker-up" in start.note
    )
    assert script.calls == []


def test_a_daemon_that_does_not_come_up_leaves_the_run_on_the_host_with_its_reason():
    script = Script(starts=False)
    start = start_if_needed("auto", "auto", script=script, **_probes(script))
    assert not start.started and "dockerd exited" in start.note and "running on the host" in start.note


def test_an_engine_that_answers_but_cannot_unpack_a_layer_is_stopped_and_the_run_goes_to_the_host():
    script = Script()
    start = start_if_needed(
        "auto",
        "auto",
        script=script,
        **_probes(script, layers="Error creating mount namespace before pivot: operation not permitted"),
    )
    assert not start.started and script.calls == ["start", "stop"] and not script.running
    assert (
        "cannot make images here (Error creating mount namespace" in start.note and "running on the host" in start.note
    )
