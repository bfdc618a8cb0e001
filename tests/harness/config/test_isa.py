import pytest

from harness.model.errors import ConfigError, UnknownNameError
from harness.config.isa import describe_effective, load_isa_table, unmet_expectations


def test_an_unknown_isa_level_lists_the_valid_ones_in_order():
    with pytest.raises(UnknownNameError) as error:
        load_isa_table().resolve("x64", ["avx3"])
    assert "unknown ISA level 'avx3' for x64" in str(error.value)
    assert error.value.hint == "valid: native, no-avx512, no-avx2, sse2, scalar"


def test_dotnet_10_uses_its_own_switch_names():
    isa = load_isa_table()
    assert isa.switches_for(".NET", "10.0.12", "no-avx512") == {"DOTNET_EnableAVX512": "0"}
    assert isa.switches_for(".NET", "10.0.12", "sse2") == {"DOTNET_EnableSSE42": "0"}
    assert isa.switches_for(".NET", "8.0.1", "no-avx512") == {"DOTNET_EnableAVX512F": "0"}
    assert isa.switches_for(".NET", "10.0.12", "native") == {}


def test_a_runtime_without_a_switch_table_is_an_explained_error():
    with pytest.raises(ConfigError, match="no ISA switches are known for .NET 7.0.0"):
        load_isa_table().switches_for(".NET", "7.0.0", "scalar")


def test_a_readback_that_contradicts_the_level_is_named_flag_by_flag():
    level = load_isa_table().levels_for("x64")["no-avx2"]
    unmet = unmet_expectations(level, {"avx": True, "avx2": True, "sse42": True, "vector256": True, "vector128": True})
    assert unmet == ["avx=True (expected False)", "avx2=True (expected False)", "vector256=True (expected False)"]
    assert (
        unmet_expectations(level, {"avx": False, "avx2": False, "sse42": True, "vector256": False, "vector128": True})
        == []
    )


def test_a_flag_the_runtime_cannot_report_is_unknown_not_a_contradiction():
    # .NET Core 3.1 has no Vector128.IsHardwareAccelerated: its sse2 level is verified by the instruction-set flags.
    level = load_isa_table().levels_for("x64")["sse2"]
    assert unmet_expectations(level, {"sse2": True, "sse3": False, "sse42": False, "avx": False}) == []
    assert unmet_expectations(level, {"sse2": True, "sse3": True, "sse42": False, "avx": False}) == [
        "sse3=True (expected False)"
    ]
    assert "cannot be verified" in unmet_expectations(level, {"avx512f": False})[0]


def test_dotnet_core_3_switches_take_the_complus_prefix():
    isa = load_isa_table()
    assert isa.switches_for(".NET", "3.1.3", "scalar") == {"COMPlus_EnableHWIntrinsic": "0"}
    assert isa.switches_for(".NET", "3.1.3", "no-avx512") == {}  # 3.1 has no AVX-512 support to turn off
    assert all(
        name.startswith("COMPlus_")
        for level in ("no-avx2", "sse2", "scalar")
        for name in isa.switches_for(".NET", "3.1.3", level)
    )


def test_effective_isa_names_the_widest_available_extension():
    assert describe_effective({"avx512f": True, "avx2": True}) == "avx512"
    assert describe_effective({"sse2": True, "sse42": True}) == "sse4.2"
    assert describe_effective({"sse2": False, "adv_simd": False}) == "scalar"
    assert describe_effective({"adv_simd": True}) == "advsimd"


def test_every_switch_name_is_known_so_stray_ones_can_be_stripped():
    names = load_isa_table().all_switch_names()
    assert {"DOTNET_EnableAVX512", "DOTNET_EnableAVX512F", "DOTNET_EnableHWIntrinsic"} <= names
