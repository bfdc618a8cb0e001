"""catalog.toml stays in step with this lab's own registries, read from their source text (nothing is built): a
variant, operation or model added to the lab and not to the catalog (or the other way round) fails here."""

from __future__ import annotations

import pathlib
import re

from harness.config.lab.lab_catalog import load_lab_catalog

HERE = pathlib.Path(__file__).resolve().parent
CATALOG = load_lab_catalog(HERE.parent)["dotnet"]


def _list_block(source: str, start: str, end: str = "];") -> str:
    """The text of a C# collection expression `<start> [ … ];` (or up to `end`)."""
    begin = source.index(start)
    return source[begin : source.index(end, begin)]


def test_the_variants_are_those_of_the_variant_registry():
    source = (HERE / "src/Adapters/VariantRegistry.cs").read_text()
    names = re.findall(r'^\s*(?:new\s+\w+|\w+)\(\s*"([^"]+)"', _list_block(source, "All ="), re.M)
    assert len(names) >= 40 and len(set(names)) == len(names)
    assert list(CATALOG.variants or ()) == names


def test_the_operations_are_those_of_the_operation_binder():
    source = (HERE / "src/Measurement/OperationBinder.cs").read_text()
    constants = dict(re.findall(r'const string (\w+) = "([^"]+)"', source))
    listed = re.search(r"Operations = \[([^\]]*)\]", source)
    assert listed
    names = [constants.get(item.strip(), item.strip().strip('"')) for item in listed.group(1).split(",")]
    assert list(CATALOG.operations or ()) == names


def test_the_models_are_those_of_the_model_catalog():
    source = (HERE / "src/Models/ModelCatalog.cs").read_text()
    names = [
        quoted or named
        for quoted, named in re.findall(
            r'^\s*new\((?:"([^"]+)"|nameof\((\w+)\))', _list_block(source, "All =", "]);"), re.M
        )
    ]
    # the hand-written ones; the declared ones are data (datasets/models)
    assert list(CATALOG.models or ()) == names


def _settings_of(source_file: str) -> dict[str, tuple[str, ...]]:
    """A settings list's names and values as its C# source writes them (`new("name", [values] or YesNo, …)`)."""
    source = (HERE / source_file).read_text()
    return {
        name: ("false", "true") if values.startswith("VariantSettings") else tuple(re.findall(r'"([^"]+)"', values))
        for name, values in re.findall(r'new\("(\w+)",\s*(VariantSettings\.YesNo|\[[^\]]*\])', source)
    }


def test_the_settings_are_those_of_each_library_and_its_settable_variants():
    block = _list_block((HERE / "src/Adapters/VariantRegistry.cs").read_text(), "All =")
    stj = re.findall(r'^\s*(?:new StjAdapter|StjWebDefaults)\(\s*"([^"]+)"', block, re.M)
    newtonsoft = re.findall(r'^\s*new NewtonsoftAdapter\(\s*"([^"]+)"', block, re.M)
    generated = re.findall(r'^\s*StjSourceGen(?:Declared)?\(\s*"([^"]+)"', block, re.M)
    stj_settings = _settings_of("src/Adapters/StjSettings.cs")
    lacks = re.search(r"SourceGeneratedLacks = \[([^\]]*)\]", (HERE / "src/Adapters/StjSettings.cs").read_text())
    assert lacks
    expected = {
        **{v: stj_settings for v in stj},
        **{v: {k: vs for k, vs in stj_settings.items() if f'"{k}"' not in lacks.group(1)} for v in generated},
        **{v: _settings_of("src/Adapters/NewtonsoftSettings.cs") for v in newtonsoft},
    }
    assert len(stj) >= 10 and len(newtonsoft) >= 3 and len(generated) >= 4
    assert all(len(s) >= 6 for s in expected.values())
    assert CATALOG.settings == expected


def _registry_variants_of(interface: str) -> list[str]:
    """The registry's variants whose adapter class implements `interface` (read from the source, both #if branches)."""
    adapters = (HERE / "src/Adapters").glob("*.cs")
    classes = {m for f in adapters for m in re.findall(rf"class (\w+)\([^)]*\)[^{{]*{interface}", f.read_text(), re.S)}
    classes -= {"NotOnThisRuntimeAdapter"}  # it keeps a variant's name where its library is missing
    helpers = {
        "StjSourceGen": "StjSourceGenAdapter",
        "StjSourceGenDeclared": "StjSourceGenAdapter",
        "StjWebDefaults": "StjAdapter",
        "SpanJson": "SpanJsonAdapter",
        "StjNode": "StjNodeAdapter",
    }
    block = _list_block((HERE / "src/Adapters/VariantRegistry.cs").read_text(), "All =")
    lines = re.findall(r'^\s*(?:new\s+(\w+)|(\w+))\(\s*"([^"]+)"', block, re.M)
    return [name for cls, helper, name in lines if (cls or helpers.get(helper, helper)) in classes]


def test_the_composites_and_the_variants_that_run_them_are_those_of_the_lab():
    source = (HERE / "src/Measurement/OperationBinder.cs").read_text()
    constants = dict(re.findall(r'const string (\w+) = "([^"]+)"', source))
    listed = re.search(r"Composites = \[([^\]]*)\]", source)
    assert listed
    assert list(CATALOG.composites) == [constants[item.strip()] for item in listed.group(1).split(",")]
    chaining, reading = _registry_variants_of("IComposableAdapter"), _registry_variants_of("IValueReadingAdapter")
    assert len(chaining) >= 20 and len(reading) == 6
    assert CATALOG.composites == {
        "serialize-then-deserialize": tuple(chaining),
        "deserialize-then-serialize": tuple(chaining),
        "deserialize-then-read": tuple(reading),
    }
