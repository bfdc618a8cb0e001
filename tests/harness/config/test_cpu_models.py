"""The CPU table: a probed CPU identified by vendor, family and model number, the table checked, nearness ranked."""

import pytest

from harness.config.cpu_models import (
    SAME_ARCH,
    SAME_LINEAGE,
    SAME_MICROARCHITECTURE,
    SAME_VENDOR,
    CpuDescription,
    load_cpu_table,
    nearness,
)
from harness.host.environment import parse_cpuinfo
from harness.model.errors import ConfigError, UnknownNameError
from tests.conftest import FIXTURES


def test_probed_cpus_are_identified_and_an_unlisted_one_is_known_by_vendor_only():
    table = load_cpu_table()
    xeon = parse_cpuinfo((FIXTURES / "cpuinfo-x64-xeon-avx512.txt").read_text())
    assert table.identify(xeon["cpu_vendor"], xeon["cpu_family"], xeon["cpu_model_number"]).key == "ice-lake"
    assert table.identify("intel", 6, 0x8E).key == "skylake", "a Coffee Lake laptop is a Skylake core"
    assert table.identify("amd", 0x17, 0x08).key == "zen-plus", "Ryzen 7 2700X"
    assert table.identify("amd", 0x1A, 0x02).key == "zen5"
    assert table.identify("arm", None, 0xD0C).key == "neoverse-n1"
    assert table.identify("amd", 0x19, 0x08).key == "zen3" and table.identify("amd", 0x17, 0x08).key != "zen3"
    unknown = table.describe_host("intel", 6, 0x01)
    assert (
        unknown.microarchitecture is None
        and unknown.arch == "x64"
        and unknown.describe() == "Intel (microarchitecture not identified)"
    )


def test_nearness_prefers_the_microarchitecture_then_lineage_then_vendor_and_never_crosses_architectures():
    table = load_cpu_table()
    skylake = CpuDescription("intel", table.get("skylake"))
    assert nearness(skylake, table.describe_host("intel", 6, 0x9E)) == SAME_MICROARCHITECTURE
    assert nearness(skylake, table.describe_host("intel", 6, 0x55)) == SAME_LINEAGE, "Skylake server core"
    assert nearness(skylake, table.describe_host("intel", 6, 0xBA)) == SAME_VENDOR
    assert nearness(skylake, table.describe_host("amd", 0x1A, 0x02)) == SAME_ARCH
    assert nearness(skylake, table.describe_host("arm", None, 0xD40)) is None
    assert nearness(CpuDescription(), table.describe_host("amd", 0x1A, 0x02)) is None, "published CPU not described"
    assert nearness(CpuDescription("amd"), table.describe_host("amd", 0x1A, 0x02)) == SAME_VENDOR


def test_a_wrong_entry_of_the_table_is_refused(tmp_path):
    with pytest.raises(UnknownNameError, match="unknown microarchitecture 'skylak'"):
        load_cpu_table().get("skylak")
    twice = tmp_path / "twice.toml"
    twice.write_text(
        "[microarchitectures.a]\nname='A'\nvendor='intel'\narch='x64'\nfamily=6\nmodels=[0x9E]\nlineage='a'\n"
        "[microarchitectures.b]\nname='B'\nvendor='intel'\narch='x64'\nfamily=6\nmodels=[0x9E]\nlineage='b'\n"
    )
    with pytest.raises(ConfigError, match="model 0x9e is listed under a too"):
        load_cpu_table(twice)
    wrong_arch = tmp_path / "arch.toml"
    wrong_arch.write_text("[microarchitectures.a]\nname='A'\nvendor='apple'\narch='x64'\nmodels=[1]\nlineage='a'\n")
    with pytest.raises(ConfigError, match="vendor 'apple' with arch 'x64'"):
        load_cpu_table(wrong_arch)


def test_the_widest_vector_isa_of_a_cpu_is_named_from_its_flags():
    from harness.config.cpu_models import widest_vector_isa

    assert widest_vector_isa(["sse2", "avx2", "avx512f"]) == "AVX-512"
    assert widest_vector_isa(["sse2", "sse4_2", "avx", "avx2"]) == "AVX2"
    assert widest_vector_isa(["fp", "asimd", "sve"]) == "SVE" and widest_vector_isa(["fp", "asimd"]) == "AdvSimd"
    assert widest_vector_isa([]) is None
