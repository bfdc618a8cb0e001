"""Which host reads a published figure in a run over several hosts: the nearest CPU, with the reason."""

from analysis.compute.verdicts.nearest_host import HostCpu, nearest_host
from harness.config.cpu_models import CpuDescription, load_cpu_table, published_cpu
from harness.config.experiment.experiments import load_experiments

TABLE = load_cpu_table()
ZEN5 = HostCpu("local", TABLE.describe_host("amd", 0x1A, 0x02))
COFFEE_LAKE = HostCpu("intel-box", TABLE.describe_host("intel", 6, 0x8E))
RAPTOR_LAKE = HostCpu("laptop", TABLE.describe_host("intel", 6, 0xBA))
GRAVITON3 = HostCpu("graviton", TABLE.describe_host("arm", None, 0xD40))


def test_each_published_cpu_of_the_seeds_is_read_on_its_nearest_host_with_the_reason():
    hardware = load_experiments()["000"].hardware
    hosts = [ZEN5, COFFEE_LAKE, RAPTOR_LAKE, GRAVITON3]
    host, why = nearest_host(published_cpu(hardware["H000a"], TABLE), hosts)  # Ryzen 7 2700X (Zen+)
    assert host == "local" and "the vendor of the published AMD Zen+" in why
    host, why = nearest_host(published_cpu(hardware["H000b"], TABLE), hosts)  # i7-6700 (Skylake)
    assert host == "intel-box" and why.startswith("Intel Skylake:") and "the microarchitecture of" in why
    raptor = published_cpu(load_experiments()["004"].hardware["H004"], TABLE)
    assert nearest_host(raptor, [ZEN5, COFFEE_LAKE, RAPTOR_LAKE])[0] == "laptop"
    assert nearest_host(raptor, [ZEN5, COFFEE_LAKE])[0] == "intel-box", "the same vendor before another"
    assert nearest_host(raptor, [ZEN5])[0] == "local", "another vendor of the same architecture, said so"


def test_ties_unknown_cpus_and_other_architectures_are_said_so():
    skylake = CpuDescription("intel", TABLE.get("skylake"))
    twin = HostCpu("second", ZEN5.cpu)
    host, why = nearest_host(skylake, [ZEN5, twin])
    assert host == "local" and "local, second are equally near, the first taken" in why
    host, why = nearest_host(CpuDescription(), [twin, ZEN5])
    assert host == "second" and "not described" in why
    host, why = nearest_host(skylake, [GRAVITON3])
    assert host is None and "no host is x64" in why
    assert nearest_host(skylake, []) == (None, "no host measured it")


def test_a_host_whose_cpu_is_not_identified_still_counts_by_its_architecture():
    unknown = HostCpu.from_facts("old", {"arch": "x64"}, TABLE)
    assert unknown.cpu.describe() == "an unidentified x64 CPU"
    host, why = nearest_host(CpuDescription("intel", TABLE.get("skylake")), [unknown])
    assert host == "old" and "only the architecture of the published Intel Skylake" in why
