"""Composite operations (two steps in one timed call) are checked before any build: the lab must offer the composite,
and the benchmark's variant must be one that runs it (lab/<lab>/catalog.toml `[composites]`)."""

import pathlib

import pytest

from harness.config.experiment.experiment_checks import check_experiments, load_context
from harness.config.experiment.experiments import load_experiments
from harness.model.errors import ConfigError, UnknownNameError


def _experiment_with(tmp_path: pathlib.Path, variant: str, operation: str, dataset: str = "employee-data"):
    source = (pathlib.Path(__file__).parents[3] / "experiments" / "001-stj-vs-newtonsoft-employees.toml").read_text()
    extra = (
        f'\n[[benchmarks]]\nid = "file-chain"\ngroup = "file"\nvariant = "{variant}"\n'
        f'dataset = "{dataset}"\noperation = "{operation}"\n'
    )
    (tmp_path / "900-test.toml").write_text(source.replace('id = "001"', 'id = "900"') + extra)
    return load_experiments(tmp_path)["900"]


@pytest.mark.parametrize("variant", ["stj-default", "newtonsoft-default", "spanjson-default-utf8"])
@pytest.mark.parametrize("operation", ["serialize-then-deserialize", "deserialize-then-serialize"])
def test_a_composite_on_a_variant_that_chains_its_steps_passes_the_checks(tmp_path, variant, operation):
    check_experiments([_experiment_with(tmp_path, variant, operation)], load_context())


def test_a_composite_on_a_variant_that_cannot_chain_its_steps_is_rejected_before_the_build(tmp_path):
    experiment = _experiment_with(tmp_path, "stj-jsondocument", "serialize-then-deserialize")
    with pytest.raises(ConfigError, match="cannot run the composite serialize-then-deserialize") as error:
        check_experiments([experiment], load_context())
    assert "stj-default" in error.value.hint


def test_a_composite_the_lab_does_not_offer_is_an_unknown_operation(tmp_path):
    with pytest.raises(UnknownNameError, match="parse-then-walk") as error:
        check_experiments([_experiment_with(tmp_path, "stj-default", "parse-then-walk")], load_context())
    assert "serialize-then-deserialize" in error.value.hint


def _cross_language_with(tmp_path: pathlib.Path, variant: str, operation: str):
    """Experiment 006 with a group of its own (no shared operation) holding `variant`'s `operation` on twitter."""
    source = pathlib.Path(__file__).parents[3] / "experiments" / "006-cross-language.toml"
    text = source.read_text().replace('id = "006"', 'id = "901"')
    text = text.replace(
        "[[groups]]",
        '[[groups]]\nid = "chain"\ntitle = "A chain"\nbaseline = "chain-twitter"\n\n[[groups]]',
        1,
    )
    text += (
        f'\n[[benchmarks]]\nid = "chain-twitter"\ngroup = "chain"\nvariant = "{variant}"\n'
        f'dataset = "twitter"\noperation = "{operation}"\n' + ("" if variant.startswith("json-") else 'lab = "cpp"\n')
    )
    (tmp_path / "901-cross-language.toml").write_text(text)
    return load_experiments(tmp_path)["901"]


@pytest.mark.parametrize("variant", ["json-string", "json-utf8", "nlohmann"])
@pytest.mark.parametrize(
    "operation", ["serialize-then-deserialize", "deserialize-then-serialize", "deserialize-then-read"]
)
def test_the_node_and_cpp_labs_run_composites_on_their_chaining_variants(tmp_path, variant, operation):
    check_experiments([_cross_language_with(tmp_path, variant, operation)], load_context())


@pytest.mark.parametrize("variant", ["rapidjson", "simdjson-dom"])
def test_a_cpp_variant_that_does_not_chain_its_steps_refuses_a_composite(tmp_path, variant):
    with pytest.raises(ConfigError, match="cannot run the composite deserialize-then-read") as error:
        check_experiments([_cross_language_with(tmp_path, variant, "deserialize-then-read")], load_context())
    assert "nlohmann" in error.value.hint


def test_a_composite_is_no_shared_operation_to_set_beside_other_labs():
    import dataclasses

    cross = load_experiments()["006"]
    bench = next(b for b in cross.benchmarks.values() if b.lab == "dotnet" and cross.groups[b.group].shared_operation)
    chained = dataclasses.replace(bench, variant="stj-default", operation="serialize-then-deserialize")
    experiment = dataclasses.replace(cross, benchmarks={**cross.benchmarks, bench.id: chained})
    with pytest.raises(ConfigError, match="is the composite serialize-then-deserialize with shared operation"):
        check_experiments([experiment], load_context())


def test_after_the_build_the_labs_own_list_says_which_variants_chain():
    from harness.model.errors import HarnessError
    from harness.session.processes.probe import LabProbe, check_variants

    listing = {
        "composites": ["serialize-then-deserialize"],
        "variants": [
            {"variant": "stj-default", "composites": ["serialize-then-deserialize"]},
            {"variant": "stj-jsondocument", "composites": ["deserialize-then-read"]},
        ],
    }

    class Cell:
        target, unavailable, benchmark, experiment, operation = "dotnet", "", "b", "900", "serialize-then-deserialize"

        def __init__(self, variant: str) -> None:
            self.variant = variant

    probe = LabProbe("dotnet", {}, listing, {})
    check_variants(probe, [Cell("stj-default")])  # type: ignore[list-item]
    with pytest.raises(HarnessError, match="cannot run the composite serialize-then-deserialize"):
        check_variants(probe, [Cell("stj-jsondocument")])  # type: ignore[list-item]


@pytest.mark.parametrize("variant", ["stj-jsondocument", "stj-jsonnode-utf8", "newtonsoft-jtoken"])
def test_parse_then_read_every_value_runs_on_the_document_variants_only(tmp_path, variant):
    check_experiments([_experiment_with(tmp_path, variant, "deserialize-then-read")], load_context())
    with pytest.raises(ConfigError, match="cannot run the composite deserialize-then-read") as error:
        check_experiments([_experiment_with(tmp_path, "stj-default", "deserialize-then-read")], load_context())
    assert variant in error.value.hint
