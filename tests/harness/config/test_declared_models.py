"""Models declared as data (datasets/models/*.toml): the type grammar and the checks a model file passes before any lab
code is made from it; a broken or hostile file is a ConfigError naming the fault, never a traceback."""

from __future__ import annotations

import pathlib

import pytest

from harness.config.data.declared_models import declared_model_names, load_space, load_spaces
from harness.config.data.model_types import TypeSyntaxError, parse_type
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ConfigError


@pytest.mark.parametrize(
    "text, canonical",
    [
        ("int", "int"),
        ("ulong?", "ulong?"),
        ("Order", "Order"),
        ("Order[]", "Order[]"),
        ("List<List<int>>", "List<List<int>>"),
        ("Dictionary<string,decimal?>", "Dictionary<string, decimal?>"),
        ("List< int[] >", "List<int[]>"),
        ("int[]?", "int[]?"),
    ],
)
def test_type_expressions_parse_to_their_canonical_text(text, canonical):
    assert parse_type(text).text() == canonical


@pytest.mark.parametrize(
    "text, says",
    [
        ("", "a type is a string"),
        ("List", "needs its type arguments"),
        ("Dictionary<int, string>", "keyed by strings"),
        ("List<int", "expected '>'"),
        ("int??", "makes a type nullable"),
        ("int; DROP", "unexpected"),
        ("List<" * 8 + "int" + ">" * 8, "nest at most"),
        ("x" * 300, "at most 200"),
        ("Map<string, int>", "unexpected"),
    ],
)
def test_malformed_type_expressions_are_refused_with_the_forms(text, says):
    with pytest.raises(TypeSyntaxError, match=says):
        parse_type(text)


def test_the_named_types_of_an_expression_are_collected():
    assert parse_type("Dictionary<string, List<Order>>").named() == {"Order"}
    assert parse_type("List<int>").named() == set()


def _space(tmp_path: pathlib.Path, text: str, name: str = "orders") -> pathlib.Path:
    path = tmp_path / f"{name}.toml"
    path.write_text(text)
    return path


GOOD = """schema_version = 1
[roots]
all = "List<Order>"
[enums.State]
values = ["Open", "Closed"]
[types.Order]
Id = "long"
State = "State?"
Lines = "List<Line>"
[types.Line]
Sku = "string"
"""


def test_a_model_file_gives_its_space_types_enums_and_roots(tmp_path):
    space = load_space(_space(tmp_path, GOOD, "my-orders"))

    assert space.name == "my-orders" and space.pascal == "MyOrders"
    assert [t.name for t in space.types] == ["Order", "Line"]
    assert [p.name for p in space.types[0].properties] == ["Id", "State", "Lines"]
    assert space.enums[0].values == ("Open", "Closed")
    assert space.model_names() == ["my-orders.all"]


@pytest.mark.parametrize(
    "edit, says",
    [
        (lambda t: t.replace("schema_version = 1", "schema_version = 2"), "schema_version must be 1"),
        (lambda t: t.replace('Sku = "string"', 'Sku = "Product"'), "names Product, which is neither"),
        (lambda t: t.replace("[types.Line]", "[types.line]"), "starting with a capital"),
        (lambda t: t.replace("[types.Line]", "[types.List]"), "cannot name a declared type"),
        (lambda t: t.replace("[types.Line]", "[types.int]"), "starting with a capital"),
        (lambda t: t.replace("Sku =", '"user-name" ='), "not a C# identifier"),
        (lambda t: t.replace('all = "List<Order>"', 'all = "Order?"'), "is nullable"),
        (lambda t: t.replace('all = "List<Order>"', '"All Of" = "Order"'), "root 'All Of'"),
        (lambda t: t.replace('[roots]\nall = "List<Order>"\n', ""), "no \\[roots\\]"),
        (lambda t: t.replace('Sku = "string"', 'Line = "string"'), "named like its type"),
        (lambda t: t.replace('"Open", "Closed"', '"Open", "Open"'), "distinct"),
        (lambda t: t.replace('"Open", "Closed"', '"Open", "not ok"'), "not a C# identifier"),
        (lambda t: t + "[enums.Order]\nvalues = ['A']\n", "declared twice"),
        (lambda t: t + "script = '<script>'\n", "Line\\] script: expected a type name"),
        (lambda t: t.replace("[types.Line]", "[types.Line]\nNested = { a = 1 }"), "a type is a string"),
        (lambda t: t.replace("schema_version = 1", "schema_version = 1\nextra = 1"), "unknown keys"),
        (lambda t: "not toml = = =", "not valid TOML"),
        (lambda t: t.replace('"Open", "Closed"', "[1], [2]"), "is not a C# identifier"),  # not a traceback
        (lambda t: t.replace('"Open", "Closed"', '"Open", "OPEN"'), "distinct ignoring case"),
        (lambda t: t.replace('"Open", "Closed"', '"Open", "value__"'), "the C# compiler keeps"),
        (lambda t: t.replace("Sku =", "__arglist ="), "the C# compiler keeps"),
        (lambda t: t.replace("Id =", 'ID = "int"\nid ='), "'ID' and 'id' are one name ignoring case"),
        (
            lambda t: t.replace("[types.Line]", "[types.JsonSerializerContext]").replace("List<Line>", "List<int>"),
            "starting Json",
        ),
        (lambda t: t.replace("[types.Line]", "[types.Int32]").replace("List<Line>", "List<Int32>"), "a .NET type"),
        (lambda t: t + '[types.ListLine]\nX = "int"\n', "would share System.Text.Json's generated name 'ListLine'"),
        (lambda t: t.replace('Sku = "string"', 'Sku = "int' + "[]" * 7 + '"'), "nest at most 6"),
    ],
)
def test_a_broken_or_hostile_model_file_is_refused_with_the_fault(tmp_path, edit, says):
    with pytest.raises(ConfigError, match=says):
        load_space(_space(tmp_path, edit(GOOD)))


def test_a_model_file_is_bounded_in_size_and_in_its_tables(tmp_path):
    with pytest.raises(ConfigError):
        load_space(_space(tmp_path, GOOD + "#" * (300 << 10)))
    many = GOOD + "".join(f"[types.T{i}]\nA = 'int'\n" for i in range(201))
    with pytest.raises(ConfigError, match="at most 200"):
        load_space(_space(tmp_path, many))


def test_a_file_name_that_is_not_a_space_name_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="lower-case letters, digits and dashes"):
        load_space(_space(tmp_path, GOOD, "My_Orders"))


def test_two_spaces_of_one_name_across_the_lab_and_the_user_folders_are_refused(tmp_path):
    (tmp_path / "models").mkdir()
    (tmp_path / "local" / "models").mkdir(parents=True)
    _space(tmp_path / "models", GOOD)
    _space(tmp_path / "local" / "models", GOOD)
    with pytest.raises(ConfigError, match="declared twice"):
        load_spaces(tmp_path)


def test_the_repository_declares_the_every_primitive_model():
    assert {"every-primitive.all", "every-primitive.one"} <= set(declared_model_names(DATASETS_DIR))


def test_two_spaces_named_alike_but_for_case_are_refused_where_files_ignore_case(tmp_path):
    (tmp_path / "models").mkdir()
    _space(tmp_path / "models", GOOD, "ab-c")
    _space(tmp_path / "models", GOOD, "abc")
    with pytest.raises(ConfigError, match="declared twice"):
        load_spaces(tmp_path)


@pytest.mark.parametrize("out", ["", ".", "src", "/tmp/x", "../x", "src/../.."])
def test_a_generated_folder_the_harness_could_not_own_is_refused(tmp_path, out):
    from harness.config.data.declared_models import parse_declared_models_target

    with pytest.raises(ConfigError, match="a folder of its own"):
        parse_declared_models_target({"declared_models": {"emitter": "csharp", "out": out}}, tmp_path / "lab.toml")
