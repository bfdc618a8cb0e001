"""A run over several hosts: each host's command line and environment, and planning for a host of another
architecture."""

import dataclasses

from harness.config.hosts import HostSpec
from harness.containers.host_probe import HostFacts
from harness.host.cpu_lock import LOCK_DIR_VARIABLE, lock_dir
from harness.model.arch import ENGINE_ARCH_VARIABLE, HOST_ARCH_VARIABLE
from harness.planning.run_plan import RunOptions, resolve_plan
from harness.planning.warm_cpus import NO_WARM_CPU
from harness.session.host_process import PlatformImages, budget_shares, child_argv, child_environment, warm_cpuset_of
from harness.session.hosts_run import cpuset_problem, host_platform

SECOND = HostSpec("second", "jsonlab-second")
FACTS = HostFacts("second", "jsonlab-second", True, arch="x64", details={"machine": "box-2"})


def test_each_host_repeats_the_selection_with_its_own_folder_host_backend_and_cpus(tmp_path):
    parent = [
        "--profile",
        "smoke",
        "--host",
        "local",
        "--host=second",
        "--run-id",
        "r1",
        "--results-dir",
        "/r",
        "--cpuset",
        "1",
        "--backend",
        "host",
        "--budget",
        "5",
        "--experiment",
        "000",
    ]
    argv = child_argv(parent, SECOND, tmp_path / "r1")
    assert argv[:6] == ["--profile", "smoke", "--budget", "5", "--experiment", "000"]
    assert "--host" not in argv and "--cpuset" not in argv and "1" not in argv and "host" not in argv
    assert argv[argv.index("--run-id") + 1] == "second"
    assert argv[argv.index("--results-dir") + 1] == str(tmp_path / "r1" / "hosts")
    assert argv[argv.index("--host-id") + 1] == "second"
    assert argv[argv.index("--backend") + 1] == "docker" and "--wait" in argv, "another engine: docker, queued on CPUs"
    local = child_argv(parent, HostSpec("local"), tmp_path / "r1")
    assert local[local.index("--backend") + 1] == "host", "this machine keeps the backend asked for"
    pinned = child_argv(parent, dataclasses.replace(SECOND, cpuset="3"), tmp_path)
    assert pinned[pinned.index("--cpuset") + 1] == "3"


def test_each_host_on_another_engine_warms_pipelined_processes_on_a_cpu_of_its_own(tmp_path):
    parent = ["--profile", "default", "--warm-cpuset", "0", "--design=paired-pipelined"]
    four = dataclasses.replace(FACTS, cpus=4)
    argv = child_argv(parent, SECOND, tmp_path, facts=four)
    assert argv.count("--warm-cpuset") == 1 and argv[argv.index("--warm-cpuset") + 1] == "0", "the host's own, not ours"
    assert "--design=paired-pipelined" in argv
    assert warm_cpuset_of(dataclasses.replace(SECOND, cpuset="0-1"), four) == "2", "the lowest CPU its lab leaves"
    assert warm_cpuset_of(SECOND, dataclasses.replace(four, isolated_cpus="0,3")) == "1", "not an isolated one"
    assert warm_cpuset_of(SECOND, dataclasses.replace(four, isolated_cpus="0-3")) == "0", "isolated, if all are"
    assert warm_cpuset_of(SECOND, dataclasses.replace(FACTS, cpus=1)) == NO_WARM_CPU, "one CPU: none (paired)"
    assert warm_cpuset_of(SECOND, FACTS) is None, "an engine that did not say: the harness's CPU, as here"
    assert warm_cpuset_of(SECOND, dataclasses.replace(four, isolated_cpus="garbage")) == "0", "a bad list: none"
    assert warm_cpuset_of(SECOND, dataclasses.replace(FACTS, cpus=10**12)) == "0", "a huge count is not listed"
    local = child_argv(parent, HostSpec("local"), tmp_path, facts=four)
    assert "--warm-cpuset" not in local, "this machine's engine: the harness's CPU"


def test_a_host_on_another_machine_locks_that_machines_cpus_and_one_on_this_machine_shares_its_locks(monkeypatch):
    monkeypatch.delenv(LOCK_DIR_VARIABLE, raising=False)
    env = child_environment(SECOND, FACTS, local_machine="box-1")
    assert env["DOCKER_CONTEXT"] == "jsonlab-second" and env[HOST_ARCH_VARIABLE] == "x64"
    assert env[LOCK_DIR_VARIABLE] == str(lock_dir() / "machine-box-2")
    same = child_environment(SECOND, FACTS, local_machine="box-2")
    assert LOCK_DIR_VARIABLE not in same, "two engines on one machine take turns on its CPUs"


def test_an_arm64_host_is_planned_with_arm64_levels(monkeypatch, tmp_path):
    monkeypatch.setenv(HOST_ARCH_VARIABLE, "arm64")
    plan = resolve_plan(RunOptions(profile="smoke", results_dir=tmp_path, check_tools=False, build=False))
    assert {c.isa_level for c in plan.cells} <= {"native", "scalar"}, "AdvSimd on (native) and off (scalar)"
    assert set(plan.levels) == {c.isa_level for c in plan.cells}
    monkeypatch.setenv(HOST_ARCH_VARIABLE, "x86_64")
    x64 = resolve_plan(RunOptions(profile="smoke", results_dir=tmp_path, check_tools=False, build=False))
    assert "no-avx2" in {c.isa_level for c in x64.cells} or "scalar" in {c.isa_level for c in x64.cells}


def test_hosts_on_one_machine_share_its_budget_and_a_host_alone_on_its_machine_keeps_all_of_it(tmp_path):
    local = (HostSpec("local"), dataclasses.replace(FACTS, name="local", details={"machine": "box-1"}))
    second = (SECOND, dataclasses.replace(FACTS, details={"machine": "box-1"}))
    remote = (HostSpec("remote", "ssh-box"), dataclasses.replace(FACTS, name="remote", details={"machine": "box-2"}))
    assert budget_shares([local, second, remote], 57) == {"local": 28.5, "second": 28.5}
    assert budget_shares([local, remote], 57) == {}, "on different machines both measure at once, each all of it"
    assert budget_shares([local, second], None) == {} and budget_shares([local, second], 0) == {}
    argv = child_argv(["--profile", "default", "--budget=57", "--experiment", "000"], SECOND, tmp_path, 28.5)
    assert argv[:5] == ["--profile", "default", "--experiment", "000", "--budget"] and argv[5] == "28.5"
    assert argv.count("--budget") == 1 and "--budget=57" not in argv


def test_a_cpuset_naming_cpus_the_host_has_not_is_refused_with_the_fix():
    facts = dataclasses.replace(FACTS, cpus=4)
    assert cpuset_problem(dataclasses.replace(SECOND, cpuset="2-3"), facts) == ""
    assert cpuset_problem(SECOND, facts) == "", "no cpuset: the host's run picks its own"
    problem = cpuset_problem(dataclasses.replace(SECOND, cpuset="3,6-7"), facts)
    assert "CPU(s) 6, 7" in problem and "has 4 (0-3)" in problem and "hosts.toml" in problem


def test_a_host_of_another_platform_runs_the_images_built_here_for_it_and_plans_their_levels(tmp_path):
    arm = HostSpec("arm", "ctx-arm")
    arm_facts = dataclasses.replace(FACTS, name="arm", arch="arm64")
    assert host_platform(arm, arm_facts) == "linux/arm64" and host_platform(SECOND, FACTS) == "linux/amd64"
    told = dataclasses.replace(SECOND, platform="linux/arm64")
    assert host_platform(told, FACTS) == "linux/arm64", "hosts.toml's platform wins"
    images = PlatformImages("linux/arm64", ("jsonlab/dotnet:10.0.12-arm64",), ("10.0.12",), ("native: not for it",))
    parent = ["--profile", "default", "--runtime", "claims,sweep", "--no-build", "--platform=linux/amd64", "--wait"]
    argv = child_argv(parent, arm, tmp_path, images=images)
    assert argv[argv.index("--platform") + 1] == "linux/arm64" and argv.count("--platform") == 1
    assert argv[argv.index("--runtime") + 1] == "10.0.12" and argv.count("--runtime") == 1
    assert argv.count("--no-build") == 1 and "claims,sweep" not in argv, "only the runtimes built for it"
    real = child_environment(arm, arm_facts, "box-1", "linux/arm64")
    assert (real[HOST_ARCH_VARIABLE], real[ENGINE_ARCH_VARIABLE]) == ("arm64", "arm64"), "measured for real"
    stand_in = child_environment(told, FACTS, "box-1", "linux/arm64")
    assert (stand_in[HOST_ARCH_VARIABLE], stand_in[ENGINE_ARCH_VARIABLE]) == ("arm64", "x64"), "emulated there"
