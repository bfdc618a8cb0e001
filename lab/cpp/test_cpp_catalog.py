"""catalog.toml stays in step with this lab's own registry (src/variants.cpp and its adapters), read from their source
text: a variant or operation added to the lab and not to the catalog (or the other way round) fails here."""

from __future__ import annotations

import pathlib
import re

from harness.config.lab.lab_catalog import load_lab_catalog

HERE = pathlib.Path(__file__).resolve().parent
CATALOG = load_lab_catalog(HERE.parent)["cpp"]


def test_the_variants_are_those_of_its_adapters_in_registry_order():
    source = (HERE / "src/variants.cpp").read_text()
    order = re.findall(r"adapters::(\w+)_variants\(\)", source)
    assert order == ["simdjson", "rapidjson", "nlohmann", "typed_nlohmann", "typed_simdjson"]
    names = [
        name
        for adapter in order
        for name in re.findall(r'Variant \w+\{\s*"([^"]+)"', (HERE / f"src/adapters/{adapter}.cpp").read_text())
    ]
    assert list(CATALOG.variants or ()) == names


def test_the_operations_are_those_of_variants_hpp():
    header = (HERE / "src/variants.hpp").read_text()
    constants = dict(re.findall(r'inline const std::string (\w+) = "([^"]+)";', header))
    listed = re.search(r"OPERATIONS = \{([^}]*)\}", header)
    assert listed
    assert list(CATALOG.operations or ()) == [constants[name.strip()] for name in listed.group(1).split(",")]


def test_it_names_no_manifest_models():
    assert CATALOG.models is None  # its typed variants carry their own models (src/models)


def test_the_composites_are_those_of_variants_hpp_with_the_variants_that_list_them():
    header = (HERE / "src/variants.hpp").read_text()
    constants = dict(re.findall(r'inline const std::string (\w+) = "([^"]+)";', header))
    listed = re.search(r"COMPOSITES = \{([^}]*)\}", header)
    assert listed
    names = [constants[name.strip()] for name in listed.group(1).split(",")]
    chaining = tuple(
        name
        for adapter in sorted((HERE / "src/adapters").glob("*.cpp"))
        for variable, name in re.findall(r'Variant (\w+)\{\s*"([^"]+)"', adapter.read_text())
        if f"{variable}.composites = COMPOSITES;" in adapter.read_text()
    )
    assert len(names) == 3 and chaining == ("nlohmann",)
    assert CATALOG.composites == {name: chaining for name in names}
