"""catalog.toml stays in step with this lab's own registry (src/variants.js), read from its source text: a variant or
operation added to the lab and not to the catalog (or the other way round) fails here."""

from __future__ import annotations

import pathlib
import re

from harness.config.lab.lab_catalog import load_lab_catalog

HERE = pathlib.Path(__file__).resolve().parent
CATALOG = load_lab_catalog(HERE.parent)["reference-node"]


def test_the_variants_and_operations_are_those_of_variants_js():
    source = (HERE / "src/variants.js").read_text()
    assert list(CATALOG.variants or ()) == re.findall(r"variant:\s*'([^']+)'", source)
    constants = dict(re.findall(r"export const (\w+) = '([^']+)';", source))
    listed = re.search(r"export const OPERATIONS = \[([^\]]*)\]", source)
    assert listed
    assert list(CATALOG.operations or ()) == [constants[name.strip()] for name in listed.group(1).split(",")]


def test_it_names_no_models():
    assert CATALOG.models is None  # the Node lab binds documents or a JSON Schema, never the manifest's model


def test_the_composites_are_those_of_composites_js_with_the_variants_that_list_them():
    composites = (HERE / "src/composites.js").read_text()
    constants = dict(re.findall(r"export const (\w+) = '([^']+)';", composites))
    listed = re.search(r"export const COMPOSITES = \[([^\]]*)\]", composites)
    assert listed
    names = [constants[name.strip()] for name in listed.group(1).split(",")]
    # each adapter of variants.js: its name, then `composites: COMPOSITES` when its steps chain
    adapters = re.findall(r"variant:\s*'([^']+)'(.*?)(?=variant:\s*'|\Z)", (HERE / "src/variants.js").read_text(), re.S)
    chaining = tuple(name for name, body in adapters if "composites: COMPOSITES" in body)
    assert len(names) == 3 and chaining == ("json-string", "json-utf8")
    assert CATALOG.composites == {name: chaining for name in names}
