from harness.host.environment import core_types, frequency_policy, parse_cpuinfo, smt_state, system_warnings
from tests.conftest import FIXTURES


def test_cpuinfo_of_a_real_x64_host_gives_model_flags_and_count():
    info = parse_cpuinfo((FIXTURES / "cpuinfo-x64-xeon-avx512.txt").read_text())
    assert info["cpu_model"] == "Intel(R) Xeon(R) Processor @ 2.80GHz"
    assert {"avx2", "avx512f", "sse4_2"} <= set(info["cpu_flags"])
    assert info["logical_cpus"] == 2
    assert info["hypervisor"] is True
    assert (info["cpu_vendor"], info["cpu_family"], info["cpu_model_number"]) == ("intel", 6, 106), "Ice Lake server"


def test_sysfs_values_a_host_does_not_expose_are_none(tmp_path):
    assert frequency_policy(str(tmp_path)) == {
        "governor": None,
        "frequency_driver": None,
        "turbo": None,
        "isolated_cpus": None,
    }
    assert smt_state(str(tmp_path)) == {"smt_active": None, "cpu0_thread_siblings": None}


def test_intel_pstate_no_turbo_means_turbo_off(tmp_path):
    pstate = tmp_path / "devices/system/cpu/intel_pstate"
    pstate.mkdir(parents=True)
    (pstate / "no_turbo").write_text("1\n")
    assert frequency_policy(str(tmp_path))["turbo"] is False


def test_warnings_carry_the_fix():
    warnings = system_warnings(
        {"governor": "powersave", "turbo": True, "hypervisor": False, "smt_active": False, "isolated_cpus": "1"}
    )
    assert any("cpupower frequency-set -g performance" in w for w in warnings)
    assert any("turbo" in w for w in warnings)
    assert len(warnings) == 2


def test_two_kinds_of_cores_are_read_from_the_kernel_s_pmus_or_capacities_and_a_vm_showing_neither_is_unknown(tmp_path):
    cpus = tmp_path / "devices" / "system" / "cpu"
    for cpu, capacity in (("cpu0", "1024"), ("cpu1", "1024")):
        (cpus / cpu).mkdir(parents=True)
        (cpus / cpu / "cpu_capacity").write_text(capacity + "\n")
    assert core_types(False, str(tmp_path)) == {"cpu_hybrid": False}
    assert core_types(True, str(tmp_path)) == {"cpu_hybrid": None}, "a VM may hide the host's core types"
    (cpus / "cpu1" / "cpu_capacity").write_text("446\n")  # an arm64 big.LITTLE: a little core
    assert core_types(True, str(tmp_path)) == {"cpu_hybrid": True}
    (cpus / "cpu1" / "cpu_capacity").write_text("1024\n")
    (tmp_path / "devices" / "cpu_atom").mkdir(parents=True)  # Intel's efficiency cores' PMU
    assert core_types(False, str(tmp_path)) == {"cpu_hybrid": True}
