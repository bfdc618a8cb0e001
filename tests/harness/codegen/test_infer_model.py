"""A model inferred from a JSON document (harness/codegen/infer_model.py): each rule, and that what it writes is a model
file the lab reads (harness/config/data/declared_models.py) for the corpus and every write-up document."""

from __future__ import annotations

import json

import pytest

from harness.codegen.infer_model import InferenceError, infer_model
from harness.config.data.declared_models import load_space
from harness.model.defaults import DATASETS_DIR


def _space(tmp_path, document):
    path = tmp_path / "doc.toml"
    path.write_text(infer_model(document, "test"))
    space = load_space(path)
    return space, {t.name: {p.name: p.type.text() for p in t.properties} for t in space.types}


def test_integers_take_the_narrowest_type_holding_every_value_and_other_numbers_are_doubles(tmp_path):
    _, types = _space(
        tmp_path,
        [
            {"a": 1, "b": 2**31, "c": 2**63, "d": 2**64, "e": 1.5, "f": 1},
            {"a": -5, "b": 0, "c": 0, "d": 0, "e": 2, "f": 0.5},
        ],
    )
    assert types["Document"] == {"a": "int", "b": "long", "c": "ulong", "d": "double", "e": "double", "f": "double"}


def test_members_some_objects_lack_or_hold_null_are_nullable(tmp_path):
    _, types = _space(tmp_path, [{"a": 1, "s": "x", "o": {"k": True}}, {"a": None, "s": None}, {"t": []}])
    assert types["Document"] == {"a": "int?", "s": "string?", "o": "O?", "t": "List<string?>?"}
    assert types["O"] == {"k": "bool"}


def test_objects_keyed_by_data_become_dictionaries_and_the_same_shape_is_one_type(tmp_path):
    space, types = _space(
        tmp_path, {"byId": {"17": {"name": "a"}, "18": {"name": "b"}}, "first": {"name": "c"}, "second": {"name": "d"}}
    )
    assert types["Document"] == {"byId": "Dictionary<string, ByIdItem>", "first": "ByIdItem", "second": "ByIdItem"}
    assert str(space.roots["document"].text()) == "Document"


def test_names_are_pascal_singular_and_never_clash_with_a_member_a_primitive_or_a_reserved_name(tmp_path):
    _, types = _space(
        tmp_path,
        {
            "statuses": [{"entities": [{"x": 1}]}],
            "Item": {"Item": 1},
            "guid": {"v": 1},
            "list": {"w": 2},
        },
    )
    assert {"Status", "Entity", "Item2", "Guid2", "List2"} <= set(types)
    assert types["Item2"] == {"Item": "int"}  # a class may not have a property of its own name


@pytest.mark.parametrize(
    "document, says",
    [
        ([{"id": 1}, {"id": "two"}], r"\$\[\]\.id holds int and string values"),
        ([1, [2]], r"\$\[\] holds array and int values"),
        ([[[[[[[[1]]]]]]]], "nest deeper than 6"),
    ],
)
def test_a_document_no_model_can_declare_is_refused_with_the_place(document, says):
    with pytest.raises(InferenceError, match=says):
        infer_model(document, "test")


def test_a_document_nested_beyond_pythons_recursion_is_refused_not_a_traceback():
    deep: dict = {}
    for _ in range(5000):
        deep = {"a": deep}
    with pytest.raises(InferenceError, match="nests too deep"):
        infer_model(deep, "test")


@pytest.mark.parametrize(
    "name", ["twitter", "citm_catalog", "canada", "persons-10000", "simple-models-1000", "every-primitive"]
)
def test_the_corpus_and_write_up_documents_give_model_files_the_lab_reads(tmp_path, name):
    manifest = json.loads((DATASETS_DIR / "manifest.json").read_text())
    entry = next(d for d in manifest["datasets"] if d["name"] == name)
    document = json.loads((DATASETS_DIR / entry["path"]).read_text(encoding="utf-8-sig"))
    space, _ = _space(tmp_path, document)
    assert space.roots["document"].kind in ("named", "list")
