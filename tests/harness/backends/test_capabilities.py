"""What a run asks of a backend is declared by the Backend protocol (harness/backends/base.py), never probed with
getattr/hasattr: each backend answers every capability, and the answers say what it is."""

from __future__ import annotations

import pathlib

import pytest

from harness.backends.docker import DockerBackend
from harness.backends.fake import FakeBackend
from harness.backends.host import HostBackend
from harness.config.lab.labs import load_labs
from harness.containers.engine import Engine

FIXTURE = pathlib.Path(__file__).resolve().parents[2] / "fixtures" / "dotnet-cell"
ENGINE = Engine("28.0.0", "amd64")


def _backends():
    return {
        "host": HostBackend(set()),
        "docker": DockerBackend(set(), "local", ENGINE),
        "fake": FakeBackend(FIXTURE),
    }


@pytest.mark.parametrize(
    "name, measures, in_containers, engine",
    [("host", True, False, None), ("docker", True, True, "Docker engine 28.0.0 (amd64)"), ("fake", False, False, None)],
)
def test_each_backend_declares_its_capabilities(name, measures, in_containers, engine):
    backend = _backends()[name]
    lab = next(lab for lab in load_labs().values() if lab.container)
    assert backend.measures is measures
    assert backend.in_containers is in_containers
    assert backend.emulates is False
    assert backend.host_id is None
    assert backend.engine_description() == engine
    tag = backend.image_tag(lab)
    assert (tag is not None) is in_containers
    if tag is not None:
        assert lab.name in tag


def test_a_run_over_several_hosts_names_the_host_on_the_backend():
    backend = HostBackend(set())
    backend.host_id = "bare-metal-1"
    assert backend.host_id == "bare-metal-1"


def test_the_session_probes_no_backend_for_attributes():
    root = pathlib.Path(__file__).resolve().parents[3]
    offenders = [
        f"{path.relative_to(root)}:{number}"
        for folder in ("harness/session", "harness/commands")
        for path in sorted((root / folder).rglob("*.py"))
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if ("getattr(" in line or "hasattr(" in line) and "backend" in line
    ]
    assert offenders == []
