"""A host as its Docker engine describes it: engine facts, CPU read in a container, ISA levels by architecture."""

import json
import subprocess

from harness.config.hosts import HostSpec
from harness.config.isa import load_isa_table
from harness.containers.host_probe import probe_cpu, probe_engine

HOST = HostSpec("box", "ctx-box")
ARM_CPUINFO = (
    "processor\t: 0\nBogoMIPS\t: 50.00\nFeatures\t: fp asimd evtstrm aes crc32\nCPU implementer\t: 0x41\n"
    "CPU part\t: 0xd0c\n\n"
)


def _docker(answers: dict[str, subprocess.CompletedProcess], calls: list):
    def run(args, timeout):
        calls.append(list(args))
        verb = next(a for a in args if a in answers)
        return answers[verb]

    return run


def _info(arch: str) -> subprocess.CompletedProcess:
    info = {
        "ServerVersion": "27.0.1",
        "Architecture": arch,
        "KernelVersion": "6.8.0",
        "NCPU": 64,
        "MemTotal": 2**37,
        "OperatingSystem": "Ubuntu 24.04",
    }
    return subprocess.CompletedProcess([], 0, json.dumps(info), "")


def test_an_arm64_host_is_planned_with_the_arm64_levels_and_its_cpu_read_in_a_container():
    calls: list = []
    docker = _docker(
        {
            "info": _info("aarch64"),
            "run": subprocess.CompletedProcess([], 0, ARM_CPUINFO + "--- isolated ---\n2-63\n", ""),
        },
        calls,
    )
    facts = probe_engine(HOST, load_isa_table(), docker)
    assert facts.reachable and facts.arch == "arm64"
    assert facts.isa_levels == tuple(load_isa_table().levels_for("arm64")), "AdvSimd on and off, measured for real"
    assert "scalar" in facts.isa_levels and "no-avx2" not in facts.isa_levels
    facts = probe_cpu(facts, HOST, "jsonlab/dotnet:10.0.12", docker)
    assert facts.cpu_model == "0xd0c" and "asimd" in facts.cpu_flags and facts.isolated_cpus == "2-63"
    assert (facts.cpu_vendor, facts.cpu_family, facts.cpu_model_number) == ("arm", None, 0xD0C), "Neoverse V1"
    assert calls[0][:2] == ["--context", "ctx-box"] and calls[1][:2] == ["--context", "ctx-box"]
    assert "--network" in calls[1] and "none" in calls[1]
    assert "arm64" in facts.describe() and "isolated CPUs 2-63" in facts.describe()


def test_an_engine_that_does_not_answer_is_unreachable_with_its_reason_and_nothing_else_is_asked():
    calls: list = []
    docker = _docker({"info": subprocess.CompletedProcess([], 1, "", "Cannot connect to the Docker daemon")}, calls)
    facts = probe_engine(HOST, load_isa_table(), docker)
    assert not facts.reachable and "Cannot connect to the Docker daemon" in facts.reason
    assert probe_cpu(facts, HOST, "img", docker) is facts and len(calls) == 1
    assert facts.describe() == (
        "box: unreachable (its Docker engine does not answer: Cannot connect to the Docker daemon)"
    )


def test_a_cpu_that_cannot_be_read_keeps_the_engine_facts_and_says_why():
    docker = _docker({"info": _info("x86_64"), "run": subprocess.CompletedProcess([], 125, "", "No such image: x")}, [])
    facts = probe_cpu(probe_engine(HOST, load_isa_table(), docker), HOST, "x", docker)
    assert facts.reachable and facts.arch == "x64" and facts.cpus == 64
    assert facts.cpu_model is None and "No such image: x" in facts.reason
