"""The two architectures of a measuring process: its images' (ISA levels planned for it) and its engine's (processes
of another are emulated), both this machine's unless a run over several hosts sets them."""

import platform

from harness.backends.docker import DockerBackend
from harness.model.arch import ENGINE_ARCH_VARIABLE, HOST_ARCH_VARIABLE, engine_arch, host_arch
from harness.session.processes.probe import LabProbe


def test_this_machine_by_default_and_a_host_engine_when_a_run_over_hosts_says_so(monkeypatch):
    monkeypatch.delenv(HOST_ARCH_VARIABLE, raising=False)
    monkeypatch.delenv(ENGINE_ARCH_VARIABLE, raising=False)
    here = {"x86_64": "x64", "aarch64": "arm64"}[platform.machine()]
    assert host_arch() == engine_arch() == here
    monkeypatch.setenv(HOST_ARCH_VARIABLE, "aarch64")
    assert host_arch() == engine_arch() == "arm64", "an arm64 box: its images and its engine"


def test_arm64_images_are_emulated_on_an_x64_engine_and_native_on_an_arm64_one(monkeypatch):
    probe = LabProbe("dotnet", {"arch": "arm64"}, {})
    backend = DockerBackend(set(), engine=object(), platform="linux/arm64")  # type: ignore[arg-type]
    monkeypatch.setenv(HOST_ARCH_VARIABLE, "arm64")
    monkeypatch.setenv(ENGINE_ARCH_VARIABLE, "x64")
    assert probe.emulated and backend.emulates
    monkeypatch.setenv(ENGINE_ARCH_VARIABLE, "arm64")
    assert not probe.emulated and not backend.emulates
