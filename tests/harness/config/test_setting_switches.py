"""Run settings as an explanation's switches: each run setting a write-up's publisher ran with and a cell does not, at
a place of its own ("10.0.12[tiered_compilation=off]"), planned only where it can take effect, in groups of its own,
recorded in every row; a lab's setting declares its default and the CPUs a value needs."""

from __future__ import annotations

import dataclasses

import pytest

from harness.config.experiment.experiments import load_experiments
from harness.config.experiment.run_settings import parse_run_settings
from harness.config.lab.labs import load_labs
from harness.config.lab.setting_switches import publisher_settings, with_setting_switches
from harness.model.cells import Cell
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.places import (
    base_runtime,
    build_of,
    factor_text,
    is_switched,
    place_name,
    switched_libraries,
    switched_settings,
)
from harness.planning.designs import group_key
from harness.planning.run_plan import RunOptions, resolve_plan

KOSTYA = "007"


def _cell(runtime: str = "10.0.12", lab: str = "dotnet", **fields) -> Cell:
    base = Cell(KOSTYA, "stj", "parse", "stj", lab, "stj", "coordinates", "deserialize", "native", runtime=runtime)
    return dataclasses.replace(base, **fields)


def test_a_place_names_its_build_and_the_settings_it_switched_and_reads_back_both():
    place = place_name("8.0.0+Newtonsoft.Json=13.0.3", (("tiered_compilation", "off"),))
    assert place == "8.0.0+Newtonsoft.Json=13.0.3[tiered_compilation=off]"
    assert build_of(place) == "8.0.0+Newtonsoft.Json=13.0.3" and base_runtime(place) == "8.0.0"
    assert switched_settings(place) == (("tiered_compilation", "off"),)
    assert switched_libraries(place) == (("Newtonsoft.Json", "13.0.3"),)
    assert factor_text(place) == "Newtonsoft.Json 13.0.3, run setting tiered_compilation=off"
    assert place_name("10.0.12", ()) == "10.0.12" and not is_switched("10.0.12") and is_switched(place)
    assert Cell.target_of("dotnet", "10.0.12[gc=server]") == "dotnet@10.0.12"  # the same build runs it


def test_007s_publisher_ran_server_gc_and_tiered_compilation_off():
    assert publisher_settings(load_experiments()[KOSTYA]) == [("gc", "server"), ("tiered_compilation", "off")]


def test_each_publisher_setting_becomes_one_copy_where_it_can_take_effect():
    experiments, labs = [load_experiments()[KOSTYA]], load_labs()
    cells = [
        _cell(),
        _cell("10.0.12+Newtonsoft.Json=13.0.3"),  # a library switch already: one factor at a time
        _cell(run_settings=(("tiered_compilation", "off"),)),  # runs with the publisher's value already
        _cell("24.21.0", lab="reference-node"),  # a lab without the setting
        _cell(unavailable="no package"),
    ]
    planned = with_setting_switches(cells, experiments, labs)
    copies = [c for c in planned if c.switched]
    assert [(c.runtime, c.run_settings, c.switched) for c in copies] == [
        ("10.0.12", (("tiered_compilation", "off"),), (("tiered_compilation", "off"),))
    ]  # Server GC needs two CPUs in a process (lab.toml min_cpus); every design pins a process to one
    assert copies[0].place == "10.0.12[tiered_compilation=off]" and copies[0].cell_id != cells[0].cell_id
    assert group_key(copies[0]) != group_key(cells[0])  # a process cannot change its settings for some cells


def test_a_copy_is_planned_at_its_cells_isa_level_after_that_levels_cells():
    experiments, labs = [load_experiments()[KOSTYA]], load_labs()
    cells = [_cell(), _cell(isa_level="no-avx512"), _cell(benchmark="newtonsoft", isa_level="no-avx512")]
    planned = with_setting_switches(cells, experiments, labs)
    assert [(c.isa_level, c.benchmark, bool(c.switched)) for c in planned] == [
        ("native", "stj", False),
        ("native", "stj", True),
        ("no-avx512", "stj", False),
        ("no-avx512", "newtonsoft", False),
        ("no-avx512", "stj", True),
        ("no-avx512", "newtonsoft", True),
    ]


def test_a_lab_toml_kept_before_min_cpus_still_reads_server_gc_as_needing_two():
    values = {"server": {"environment": {"DOTNET_gcServer": "1"}}, "workstation": {"environment": {}}}
    old = parse_run_settings({"gc": {"values": values}}, "kept lab.toml")["gc"]
    assert old.values["server"].needs_cpus("server") == 2 and old.values["workstation"].needs_cpus("workstation") == 1


def test_the_explain_profile_plans_the_switch_and_its_rows_record_the_place():
    plan = resolve_plan(RunOptions(profile="explain", experiments=(KOSTYA,), build=False, check_tools=False))
    switched = [c for c in plan.cells if c.switched]
    assert switched and {c.place for c in switched} == {"10.0.12[tiered_compilation=off]"}
    assert {c.benchmark for c in switched} == {c.benchmark for c in plan.cells if c.lab == "dotnet" and not c.switched}
    assert all(c.lab == "dotnet" and c.runtime == "10.0.12" for c in switched)
    default = resolve_plan(RunOptions(profile="default", experiments=(KOSTYA,), build=False, check_tools=False))
    assert not any(c.switched for c in default.cells)  # only a profile that asks switches anything


def test_a_settings_default_must_be_one_of_its_values_and_min_cpus_a_whole_number():
    values = {"on": {"environment": {"X": "1"}}, "off": {"environment": {"X": "0"}, "min_cpus": 2}}
    parsed = parse_run_settings({"tiered": {"default": "on", "values": values}}, "lab.toml")
    assert parsed["tiered"].default == "on" and parsed["tiered"].values["off"].min_cpus == 2
    with pytest.raises(UnknownNameError, match="default of run setting tiered"):
        parse_run_settings({"tiered": {"default": "maybe", "values": values}}, "lab.toml")
    with pytest.raises(ConfigError, match="min_cpus must be a whole number"):
        parse_run_settings({"tiered": {"values": {"on": {"min_cpus": 0}}}}, "lab.toml")
