"""The declared models as each lab's code (harness/codegen/csharp.py, harness/builds/lab_models.py): what the C# says
for each kind of type, and the generated folder kept exactly in step with datasets/models/."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest

from harness.builds.lab_models import write_lab_models
from harness.codegen.csharp import lab_files, registry_file, space_file
from harness.config.data.clr_names import camel_case
from harness.config.data.declared_models import load_space
from harness.config.lab.labs import load_labs
from harness.model.errors import ConfigError

MODEL = """schema_version = 1
[roots]
all = "List<Order>"
one = "Order"
[enums.State]
values = ["Open", "class"]
[types.Order]
Id = "ulong"
Note = "string"
State = "State?"
Lines = "List<Line?>"
Tags = "Dictionary<string, int[]>"
class = "bool"
[types.Line]
Sku = "string"
"""


@pytest.fixture
def space(tmp_path):
    (tmp_path / "models").mkdir()
    path = tmp_path / "models" / "shop-orders.toml"
    path.write_text(MODEL)
    return load_space(path, "models/shop-orders.toml")


@pytest.mark.parametrize(
    "name, camel", [("Name", "name"), ("ID", "id"), ("URLValue", "urlValue"), ("already", "already"), ("A", "a")]
)
def test_camel_case_is_system_text_jsons_naming_policy(name, camel):
    assert camel_case(name) == camel


def test_a_space_becomes_its_own_namespace_with_properties_typed_as_declared(space):
    code = space_file(space, "datasets/models/shop-orders.toml")

    assert "namespace JsonLab.Models.Declared.ShopOrders" in code and "using" not in code  # every .NET name qualified
    assert "public enum State { Open = 0, @class = 1 }" in code
    assert "public ulong Id { get; set; }" in code
    assert "public string? Note { get; set; }" in code  # reference types: null or absent reads as null
    assert "public State? State { get; set; }" in code
    assert "public global::System.Collections.Generic.List<Line?>? Lines { get; set; }" in code
    assert "public global::System.Collections.Generic.Dictionary<string, int[]?>? Tags { get; set; }" in code
    assert "public bool @class { get; set; }" in code  # a keyword is escaped, its JSON name stays "class"


def test_the_camel_twin_carries_the_names_and_the_context_lists_each_root_once(space):
    code = space_file(space, "x")

    twin = code[code.index("namespace CamelAnnotated") :]
    stj = "global::System.Text.Json.Serialization"
    assert f'[{stj}.JsonPropertyName("id")]' in twin and f'[{stj}.JsonPropertyName("class")]' in twin
    for context in ("ShopOrdersCamelJsonContext", "ShopOrdersDeclaredJsonContext"):  # camelCase; the file's own options
        listing = code[: code.index(f"class {context}")].rsplit("JsonSourceGenerationOptions", 1)[1]
        assert listing.count(f"[{stj}.JsonSerializable(typeof(global::System.Collections.Generic.List<Order>))]") == 1
        assert listing.count(f"[{stj}.JsonSerializable(typeof(Order))]") == 1
    assert "#if !LEGACY_RUNTIME" in code  # no source generation on .NET Core 3.1


def test_the_registry_names_each_root_and_never_puts_a_nullable_reference_in_typeof(space):
    code = registry_file([space])

    assert 'models.Add(new("shop-orders.all"' in code
    generic = "global::System.Collections.Generic.List"
    assert f"typeof({generic}<global::JsonLab.Models.Declared.ShopOrders.Order>)" in code
    assert f"typeof({generic}<global::JsonLab.Models.Declared.ShopOrders.CamelAnnotated.Order>)" in code
    typeofs = re.findall(r"typeof\((.*?)\)\)", code)
    assert typeofs and not any("?" in t for t in typeofs)
    # named after its space: the source generator names its files by the context's name alone (two spaces, one name:
    # CS8785, no metadata for any context)
    assert "contexts.Add(global::JsonLab.Models.Declared.ShopOrders.ShopOrdersDeclaredJsonContext.Default);" in code
    assert "contexts.Add(global::JsonLab.Models.Declared.ShopOrders.ShopOrdersCamelJsonContext.Default);" in code


def test_the_generated_folder_follows_the_model_files(tmp_path, space):
    lab = dataclasses.replace(load_labs()["dotnet"], directory=tmp_path / "lab")
    datasets = tmp_path
    out = tmp_path / "lab" / "src" / "Models" / "Declared"

    made = ["DeclaredModels.g.cs", "JsonSrcGenTwins.g.cs", "README.md", "ShopOrders.g.cs"]
    assert sorted(write_lab_models(lab, datasets)) == made
    assert write_lab_models(lab, datasets) == []  # unchanged: nothing rewritten, the build fingerprint stays
    (out / "Stale.g.cs").write_text("// a space deleted since")
    (tmp_path / "models" / "shop-orders.toml").unlink()
    assert sorted(write_lab_models(lab, datasets)) == ["DeclaredModels.g.cs", "ShopOrders.g.cs", "Stale.g.cs"]
    assert sorted(p.name for p in out.iterdir()) == ["DeclaredModels.g.cs", "JsonSrcGenTwins.g.cs", "README.md"]
    assert "AddDeclared" in (out / "DeclaredModels.g.cs").read_text()


def test_a_lab_without_declared_models_is_left_alone_and_an_unknown_emitter_is_refused(tmp_path):
    labs = load_labs()
    plain = dataclasses.replace(labs["cpp"], directory=tmp_path, declared_models=None)
    assert write_lab_models(plain, tmp_path) == []
    odd = dataclasses.replace(
        labs["dotnet"],
        directory=tmp_path,
        declared_models=dataclasses.replace(labs["dotnet"].declared_models, emitter="cobol"),
    )
    with pytest.raises(ConfigError, match="emitter 'cobol' is unknown"):
        write_lab_models(odd, tmp_path)


def test_every_file_of_the_repository_models_is_emitted():
    from harness.config.data.declared_models import load_spaces
    from harness.model.defaults import DATASETS_DIR

    files = lab_files(load_spaces(DATASETS_DIR))
    assert "EveryPrimitive.g.cs" in files and "DeclaredModels.g.cs" in files


def test_a_space_named_like_a_dotnet_type_changes_nothing_the_code_means(tmp_path):
    (tmp_path / "models").mkdir()
    path = tmp_path / "models" / "guid.toml"
    path.write_text('schema_version = 1\n[roots]\none = "T"\n[types.T]\nId = "Guid"\nAt = "DateTime"\n')
    code = space_file(load_space(path), "x")
    assert "namespace JsonLab.Models.Declared.Guid" in code
    assert "public global::System.Guid Id" in code and "public global::System.DateTime At" in code


def test_the_node_lab_gets_a_json_schema_per_root_with_every_type_a_definition(space):
    from harness.codegen.json_schema import lab_files as schema_files

    files = schema_files([space])
    assert sorted(files) == ["shop-orders.all.schema.json", "shop-orders.one.schema.json"]
    schema = json.loads(files["shop-orders.all.schema.json"])
    assert schema["type"] == "array" and schema["items"] == {"$ref": "#/definitions/Order"}
    order = schema["definitions"]["Order"]["properties"]
    assert order["Id"] == {"type": "integer"} and order["Note"] == {"type": "string"}  # null only where declared T?
    assert order["State"] == {"type": ["integer", "null"]}  # an enum is its number
    assert order["Lines"] == {"type": "array", "items": {"anyOf": [{"$ref": "#/definitions/Line"}, {"type": "null"}]}}
    assert order["Tags"] == {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "integer"}}}


def test_the_cpp_lab_gets_structs_declared_first_then_defined_and_a_dispatch_per_root(space):
    from harness.codegen.cpp import lab_files as cpp_files

    header = cpp_files([space])["declared_models.hpp"]
    assert "struct ShopOrders_Order_t;\nstruct ShopOrders_Line_t;\n" in header  # every struct declared first
    assert header.index("JSONLAB_MODEL(ShopOrders_Order_t,") < header.index("JSONLAB_MODEL(ShopOrders_Line_t,")
    assert "F(Maybe<std::uint64_t>, Id_)" in header and "F(Maybe<std::string>, Note_)" in header
    assert "F(Maybe<std::optional<std::int64_t>>, State_)" in header  # an enum is its number
    assert "F(Maybe<std::vector<std::optional<ShopOrders_Line_t>>>, Lines_)" in header
    assert "F(Maybe<Map<std::vector<std::int64_t>>>, Tags_)" in header and "F(Maybe<bool>, class_)" in header
    assert 'if (model == "shop-orders.all") return f(ModelTag<std::vector<ShopOrders_Order_t>>{});' in header
    assert 'DECLARED_MODELS = {"shop-orders.all", "shop-orders.one"}' in header


@pytest.mark.parametrize(
    "types, refused",
    [
        ('[types.Node]\nName = "string"\nKids = "List<Node>"\n', False),  # a std::vector of itself is C++17
        ('[types.Node]\nNext = "Node?"\n', True),  # a std::optional of itself is not
        ('[types.Node]\nByKey = "Dictionary<string, Node>"\n', True),  # a Map's pair: refused, not tried
        ('[types.Node]\nOther = "Leaf?"\n[types.Leaf]\nBack = "Node?"\n', True),
        ('[types.Node]\nOther = "List<Leaf>"\n[types.Leaf]\nBack = "Node?"\n', False),
        ('[types.Node]\nOther = "List<Leaf>"\n[types.Leaf]\nBack = "List<Node>"\n', False),
        ("[types.Node]\n" + "".join(f'P{i} = "int"\n' for i in range(65)), True),  # the readers' 64-bit mask
    ],
)
def test_a_type_cpp_cannot_hold_gets_no_struct_and_its_roots_say_why(tmp_path, types, refused):
    from harness.codegen.cpp import lab_files as cpp_files

    path = tmp_path / "tree.toml"
    path.write_text(f'schema_version = 1\n[roots]\nroot = "Node"\n{types}')
    header = cpp_files([load_space(path, "models/tree.toml")])["declared_models.hpp"]
    assert ("has no C++ struct: " in header) == refused
    assert ("JSONLAB_MODEL(Tree_Node_t," in header) != refused
    assert 'DECLARED_MODELS = {"tree.root"}' in header


def test_a_root_of_a_single_value_gets_no_cpp_struct_nor_jsonsrcgen_twin(tmp_path):
    from harness.codegen.cpp import lab_files as cpp_files

    path = tmp_path / "one.toml"
    path.write_text('schema_version = 1\n[roots]\nroot = "int"\n[types.T]\nA = "int"\n')
    space = load_space(path, "models/one.toml")
    assert "has no C++ struct: root root is a single value" in cpp_files([space])["declared_models.hpp"]
    assert "JsonSrcGenTwin" not in lab_files([space])["One.g.cs"]


def test_a_space_of_kinds_jsonsrcgen_reads_gets_twins_attributes_and_the_adapters_dispatch(tmp_path):
    path = tmp_path / "shop.toml"
    path.write_text(
        'schema_version = 1\n[roots]\nall = "List<Order>"\none = "Order"\n[types.Order]\nId = "long"\n'
        'Note = "string?"\nLines = "List<Line>"\nCodes = "int[]"\n[types.Line]\nSku = "string"\nTags = "List<string>"\n'
    )
    files = lab_files([load_space(path, "models/shop.toml")])
    twin = "global::JsonLab.Models.Declared.Shop.JsonSrcGenTwin"
    twins = files["JsonSrcGenTwins.g.cs"]  # a compilation unit of its own, which the probe compiles alone
    assert "JsonSrcGenTwin" not in files["Shop.g.cs"]
    assert "namespace JsonLab.Models.Declared.Shop.JsonSrcGenTwin" in twins and "[global::JsonSrcGen.Json]" in twins
    assert twins.count(f"[assembly: global::JsonSrcGen.JsonList(typeof({twin}.Order))]") == 1  # root and nowhere else
    assert twins.count("[assembly: global::JsonSrcGen.JsonList(typeof(string))]") == 1
    assert "[assembly: global::JsonSrcGen.JsonArray(typeof(int))]" in twins
    registry = files["DeclaredModels.g.cs"]
    assert f"[ModelBinding.JsonSrcGen] = new(typeof({twin}.Order))," in registry
    assert f"if (typeof(T) == typeof({twin}.Order))" in registry and f"if (value is {twin}.Order v1)" in registry


def test_a_space_with_a_kind_jsonsrcgen_does_not_read_gets_no_twin_and_a_note_naming_the_member(space):
    files = lab_files([space])
    assert "JsonSrcGenTwin" not in files["ShopOrders.g.cs"]
    registry = files["DeclaredModels.g.cs"]
    assert 'notes["shop-orders.all"] = "Order.Id is ulong (ulong), which JsonSrcGen 1.1.1 does not read";' in registry
    assert "[ModelBinding.JsonSrcGen]" not in registry and "[assembly:" not in files["JsonSrcGenTwins.g.cs"]
