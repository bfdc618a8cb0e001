"""Variants with settings chosen in the experiment: one canonical name, checked against what the lab's catalog (before
the build) and its `list` output (after) say the variant takes."""

import pathlib

import pytest

from harness.config.experiment.experiment_checks import check_experiments, load_context
from harness.config.experiment.experiments import load_experiments
from harness.config.lab.variant_settings import base_of, check_settings, describe, split, with_settings
from harness.model.errors import ConfigError, UnknownNameError
from harness.session.processes.probe import LabProbe, check_variants

TAKES = {"indented": ("false", "true"), "naming": ("as_declared", "camelCase", "snake_case_lower")}


def test_settings_make_one_name_whatever_order_they_are_written_in():
    name = with_settings("stj-default", {"naming": "camelCase", "indented": True}, "here")
    assert name == "stj-default+indented=true+naming=camelCase"
    assert with_settings("stj-default", {"indented": True, "naming": "camelCase"}, "here") == name
    assert split(name) == ("stj-default", (("indented", "true"), ("naming", "camelCase")))
    assert base_of(name) == "stj-default" and base_of("stj-default") == "stj-default"
    assert describe(name) == "indented=true, naming=camelCase" and describe("stj-default") == ""


@pytest.mark.parametrize(
    "settings, message",
    [
        ({"naming": "camel case"}, "is not a setting name and value"),
        ({"nam+ing": "x"}, "is not a setting name and value"),
        ({"naming": "x" * 65}, "is not a setting name and value"),
    ],
)
def test_a_setting_that_cannot_be_named_is_refused(settings, message):
    with pytest.raises(ConfigError, match=message):
        with_settings("stj-default", settings, "benchmark b")


def test_settings_in_the_name_and_a_table_are_refused():
    with pytest.raises(ConfigError, match="already names settings"):
        with_settings("stj-default+indented=true", {"naming": "camelCase"}, "benchmark b")


@pytest.mark.parametrize(
    "name, takes, message",
    [
        ("stj-default+colour=blue", TAKES, "has no setting 'colour'"),
        ("stj-default+naming=shouting", TAKES, "cannot be 'shouting'"),
        ("spanjson-default+indented=true", None, "takes no settings"),
        ("spanjson-default+indented=true", {}, "takes no settings"),
        ("stj-default+indented", TAKES, "not <setting>=<value>"),
        ("stj-default+naming=camelCase+indented=true", TAKES, "repeat or are out of order"),
        ("stj-default+indented=true+indented=false", TAKES, "repeat or are out of order"),
        ("stj-default+indented=true\n", TAKES, "not <setting>=<value>"),
    ],
)
def test_settings_a_variant_does_not_take_are_refused_naming_what_it_takes(name, takes, message):
    with pytest.raises(ConfigError, match=message):
        check_settings(name, takes, "lab dotnet (benchmark b)")
    check_settings(base_of(name), takes, "a plain name needs nothing")


def _experiment_with(tmp_path: pathlib.Path, settings: str) -> pathlib.Path:
    source = (pathlib.Path(__file__).parents[3] / "experiments" / "001-stj-vs-newtonsoft-employees.toml").read_text()
    extra = (
        '\n[[benchmarks]]\nid = "file-stj-snake"\ngroup = "file"\nvariant = "stj-default"\n'
        f'dataset = "employee-data"\nsettings = {settings}\n'
    )
    (tmp_path / "900-test.toml").write_text(source.replace('id = "001"', 'id = "900"') + extra)
    return tmp_path


def test_an_experiments_settings_name_its_benchmarks_variant_and_pass_the_checks(tmp_path):
    experiment = load_experiments(_experiment_with(tmp_path, '{ naming = "snake_case_lower", indented = true }'))["900"]
    assert experiment.benchmarks["file-stj-snake"].variant == "stj-default+indented=true+naming=snake_case_lower"
    check_experiments([experiment], load_context())


@pytest.mark.parametrize(
    "settings, message",
    [
        ('{ naming = "shouting" }', "setting 'naming' of variant 'stj-default' cannot be 'shouting'"),
        ("{ tabs = true }", "variant 'stj-default' has no setting 'tabs'"),
    ],
)
def test_a_wrong_setting_is_rejected_before_the_build(tmp_path, settings, message):
    experiment = load_experiments(_experiment_with(tmp_path, settings))["900"]
    with pytest.raises(ConfigError, match=message) as error:
        check_experiments([experiment], load_context())
    assert "one of:" in error.value.hint or "its settings:" in error.value.hint


def test_a_wrong_settings_table_is_refused_by_the_schema(tmp_path):
    with pytest.raises(ConfigError, match="settings"):
        load_experiments(_experiment_with(tmp_path, "{ naming = 3 }"))


def test_the_labs_own_listing_decides_after_the_build():
    listing = {
        "variants": [
            {"variant": "stj-default", "settings": [{"name": "indented", "values": ["false", "true"]}]},
            {"variant": "spanjson-default", "settings": []},
        ]
    }
    probe = LabProbe("dotnet", {}, listing, {})

    class Cell:
        target, unavailable, benchmark, experiment, operation = "dotnet", "", "b", "900", "serialize"

        def __init__(self, variant: str) -> None:
            self.variant = variant

    check_variants(probe, [Cell("stj-default+indented=true"), Cell("spanjson-default")])  # type: ignore[list-item]
    with pytest.raises(ConfigError, match="takes no settings"):
        check_variants(probe, [Cell("spanjson-default+indented=true")])  # type: ignore[list-item]
    with pytest.raises(UnknownNameError, match="unknown variant"):
        check_variants(probe, [Cell("stj-defualt+indented=true")])  # type: ignore[list-item]
