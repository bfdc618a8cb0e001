"""Run settings as data: what a lab declares (lab.toml [run_settings]), how an experiment or group asks for them, the
cell identity they give, the readback check, and that declaring one changes no other experiment's cells."""

from __future__ import annotations

import shutil

import pytest

from harness.config.experiment.experiments import load_experiments
from harness.config.experiment.run_settings import NOT_READ_BACK, parse_run_settings, readback_state, unmet_settings
from harness.config.lab.labs import load_lab, load_labs
from harness.model.defaults import EXPERIMENTS_DIR, LABS_DIR
from harness.model.errors import ConfigError
from harness.planning.run_plan import RunOptions, resolve_plan
from tests.conftest import after_lab_line, edited_experiments

SETTINGS_LINE = 'run_settings = { tiered_compilation = "off", gc = "server" }\n'


def test_the_dotnet_lab_declares_tiered_compilation_and_gc_with_both_variable_prefixes_and_a_readback():
    lab = load_labs()["dotnet"]
    assert set(lab.run_settings) == {"tiered_compilation", "gc"}
    env = lab.settings_environment((("gc", "server"), ("tiered_compilation", "off")))
    assert env == {
        "DOTNET_gcServer": "1",
        "COMPlus_gcServer": "1",
        "DOTNET_TieredCompilation": "0",
        "COMPlus_TieredCompilation": "0",
    }
    assert all(value.expect for setting in lab.run_settings.values() for value in setting.values.values())


def test_a_run_setting_that_sets_an_isa_switchs_variable_is_refused_at_load(tmp_path):
    lab_dir = tmp_path / "dotnet"
    shutil.copy(LABS_DIR / "dotnet" / "lab.toml", lab_dir.mkdir() or lab_dir / "lab.toml")
    text = (lab_dir / "lab.toml").read_text()
    (lab_dir / "lab.toml").write_text(
        text + '\n[run_settings.wide]\nvalues.off = { environment = { DOTNET_EnableAVX = "0" } }\n'
    )
    with pytest.raises(ConfigError, match="run setting wide=off sets DOTNET_EnableAVX, which an ISA switch sets"):
        load_lab(lab_dir)


def test_a_setting_without_values_is_refused():
    with pytest.raises(ConfigError, match=r"\[run_settings.gc\] declares no values"):
        parse_run_settings({"gc": {"description": "x"}}, "lab.toml")


def test_a_readback_that_contradicts_or_omits_a_setting_is_named_and_a_value_without_expect_is_not_read_back():
    known = parse_run_settings(
        {
            "tiered_compilation": {"values": {"off": {"expect": {"tiered_compilation": False}}}},
            "flags": {"values": {"big": {"environment": {"X": "1"}}}},
        },
        "lab.toml",
    )
    asked = (("tiered_compilation", "off"),)
    assert unmet_settings(known, "lab", asked, {"tiered_compilation": False}) == []
    assert unmet_settings(known, "lab", asked, {"tiered_compilation": True}) == [
        "tiered_compilation=off (tiered_compilation is true, expected false)"
    ]
    assert unmet_settings(known, "lab", asked, {}) == [
        "tiered_compilation=off (tiered_compilation is not reported, expected false)"
    ]
    assert readback_state(known, "lab", asked) == "read back"
    assert readback_state(known, "lab", (("flags", "big"),)) == NOT_READ_BACK


def test_an_experiments_settings_reach_every_group_and_a_groups_own_override_them(tmp_path):
    def edit(text):
        text = after_lab_line(SETTINGS_LINE)(text)
        small = 'baseline = "deserialize-small-newtonsoft"\n'
        return text.replace(small, small + 'run_settings = { gc = "workstation" }\n', 1)

    exp = load_experiments(edited_experiments(tmp_path, e003=edit))["003"]
    assert exp.run_settings == (("gc", "server"), ("tiered_compilation", "off"))
    assert exp.groups["deserialize-big"].run_settings == (("gc", "server"), ("tiered_compilation", "off"))
    assert exp.groups["deserialize-small"].run_settings == (("gc", "workstation"), ("tiered_compilation", "off"))
    assert exp.settings_of("deserialize-small-stj") == exp.groups["deserialize-small"].run_settings


def _plan(folder, profile: str):
    return resolve_plan(
        RunOptions(
            profile=profile, experiments_dir=folder, build=False, pin_harness=False, calibrate=False, check_tools=False
        )
    )


def test_declaring_settings_in_one_experiment_changes_its_cell_ids_and_no_profiles_cell_count(tmp_path):
    before = _plan(EXPERIMENTS_DIR, "full").cells
    after = _plan(edited_experiments(tmp_path, e003=after_lab_line(SETTINGS_LINE)), "full").cells
    assert len(after) == len(before)
    changed = {c.cell_id for c in after} - {c.cell_id for c in before}
    assert changed and all(c.startswith("003:") and c.endswith("[gc=server,tiered_compilation=off]") for c in changed)
    assert all(c.run_settings == () for c in after if c.experiment != "003")
    cell = next(c for c in after if c.experiment == "003")
    assert cell.slug.endswith("__gc_server_tiered_compilation_off")


def test_a_host_process_inherits_no_run_setting_from_the_shell_only_its_cells_own(monkeypatch):
    from harness.backends.host import HostBackend

    lab = load_labs()["dotnet"].for_runtime("10.0.12")
    monkeypatch.setenv("DOTNET_gcServer", "1")
    monkeypatch.setenv("COMPlus_TieredCompilation", "0")
    backend = HostBackend(set())
    plain = backend.environment(lab, {})
    assert "DOTNET_gcServer" not in plain and "COMPlus_TieredCompilation" not in plain
    asked = backend.environment(lab, lab.settings_environment((("gc", "server"),)))
    assert asked["DOTNET_gcServer"] == "1" and "COMPlus_TieredCompilation" not in asked
