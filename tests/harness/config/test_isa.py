import pytest

from harness.config.isa import describe_effective, load_isa_table, unmet_expectations
from harness.model.errors import ConfigError, UnknownNameError


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


def test_switches_come_from_each_labs_own_lab_toml(tmp_path):
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "lab.toml").write_text(
        '[isa_switches."MyRuntime".1]\nnative = {}\nscalar = { MY_SIMD = "0" }\n'
    )
    isa = load_isa_table(labs_dir=tmp_path)
    assert isa.switches_for("MyRuntime", "1.2.3", "scalar") == {"MY_SIMD": "0"}
    assert not isa.has_switches("MyRuntime", "1.2.3", "no-avx2")  # a level without an entry is not applicable
    with pytest.raises(ConfigError, match="no ISA switches are known for Other 2.0") as e:
        isa.switches_for("Other", "2.0", "native")
    assert e.value.hint.startswith('add an [isa_switches."Other".2] table to the lab\'s lab.toml')


def test_a_runtime_claimed_by_two_labs_or_an_unknown_level_is_refused(tmp_path):
    for lab in ("a", "b"):
        (tmp_path / lab).mkdir()
        (tmp_path / lab / "lab.toml").write_text('[isa_switches."R".1]\nnative = {}\n')
    with pytest.raises(ConfigError, match="ISA switches for R 1 are in both"):
        load_isa_table(labs_dir=tmp_path)
    (tmp_path / "b" / "lab.toml").write_text('[isa_switches."S".1]\navx3 = {}\n')
    with pytest.raises(ConfigError, match=r"names unknown ISA level\(s\) avx3"):
        load_isa_table(labs_dir=tmp_path)


def test_the_harness_keeps_no_switch_table_of_its_own():
    import tomllib

    from harness.model.defaults import ISA_LEVELS_FILE

    assert "switches" not in tomllib.loads(ISA_LEVELS_FILE.read_text())
