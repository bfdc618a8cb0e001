"""harness/config/lab_catalog.toml stays in step with the labs' own registries, read from their source text (nothing is
built):
a variant, operation or model added to a lab and not to the catalog (or the other way round) fails here."""

from __future__ import annotations

import re

from harness.config.lab_catalog import load_lab_catalog
from harness.config.labs import load_labs

from tests.conftest import REPO

CATALOG = load_lab_catalog()


def _list_block(source: str, start: str) -> str:
    """The text of a C# collection expression `<start> [ … ];`."""
    begin = source.index(start)
    return source[begin : source.index("];", begin)]


def test_every_lab_is_catalogued():
    assert set(CATALOG) == set(load_labs())


def test_the_dotnet_variants_are_those_of_the_variant_registry():
    source = (REPO / "lab/dotnet/src/Adapters/VariantRegistry.cs").read_text()
    names = re.findall(r'^\s*(?:new\s+\w+|\w+)\(\s*"([^"]+)"', _list_block(source, "All ="), re.M)
    assert len(names) >= 40 and len(set(names)) == len(names)
    assert list(CATALOG["dotnet"].variants) == names


def test_the_dotnet_operations_are_those_of_the_operation_binder():
    source = (REPO / "lab/dotnet/src/Measurement/OperationBinder.cs").read_text()
    constants = dict(re.findall(r'const string (\w+) = "([^"]+)"', source))
    listed = re.search(r"Operations = \[([^\]]*)\]", source).group(1)
    names = [constants.get(item.strip(), item.strip().strip('"')) for item in listed.split(",")]
    assert list(CATALOG["dotnet"].operations) == names


def test_the_dotnet_models_are_those_of_the_model_catalog():
    source = (REPO / "lab/dotnet/src/Models/ModelCatalog.cs").read_text()
    names = [
        quoted or named
        for quoted, named in re.findall(r'^\s*new\((?:"([^"]+)"|nameof\((\w+)\))', _list_block(source, "All ="), re.M)
    ]
    assert list(CATALOG["dotnet"].models) == names


def test_the_node_variants_and_operations_are_those_of_variants_js():
    source = (REPO / "lab/reference-node/src/variants.js").read_text()
    assert list(CATALOG["reference-node"].variants) == re.findall(r"variant:\s*'([^']+)'", source)
    constants = dict(re.findall(r"export const (\w+) = '([^']+)';", source))
    listed = re.search(r"export const OPERATIONS = \[([^\]]*)\]", source).group(1)
    assert list(CATALOG["reference-node"].operations) == [constants[name.strip()] for name in listed.split(",")]
    assert (
        CATALOG["reference-node"].models is None
    )  # the Node lab binds documents or a JSON Schema, never the manifest's model


def test_the_native_variants_and_operations_are_those_of_its_adapters():
    source = (REPO / "lab/native/src/variants.cpp").read_text()
    order = re.findall(r"adapters::(\w+)_variants\(\)", source)
    assert order == ["simdjson", "rapidjson", "nlohmann", "typed_nlohmann", "typed_simdjson"]
    names = [
        name
        for adapter in order
        for name in re.findall(
            r'Variant \w+\{\s*"([^"]+)"', (REPO / f"lab/native/src/adapters/{adapter}.cpp").read_text()
        )
    ]
    assert list(CATALOG["native"].variants) == names
    header = (REPO / "lab/native/src/variants.hpp").read_text()
    constants = dict(re.findall(r'inline const std::string (\w+) = "([^"]+)";', header))
    listed = re.search(r"OPERATIONS = \{([^}]*)\}", header).group(1)
    assert list(CATALOG["native"].operations) == [constants[name.strip()] for name in listed.split(",")]
    assert CATALOG["native"].models is None


def test_every_variant_an_experiment_uses_is_catalogued():
    from harness.config.experiments import load_experiments

    for exp in load_experiments().values():
        for bench in exp.benchmarks.values():
            assert bench.unavailable or bench.variant in CATALOG[bench.lab].variants, (exp.id, bench.id)


def test_every_catalogued_variant_has_a_display_entry_and_no_other():
    for lab, names in CATALOG.items():
        assert names.variants is not None, lab
        assert set(names.display) == set(names.variants), lab
        for variant, display in names.display.items():
            assert display.settings.strip() and len(display.settings) <= 40, (lab, variant)
