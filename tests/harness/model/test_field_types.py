"""A stored sub-record declared once as a TypedDict: mypy reads it, and type_problem checks a JSON value against it,
nested records and required keys included (under postponed annotations too)."""

from __future__ import annotations

from typing import NotRequired, Required, TypedDict

import pytest

from harness.model.folder.field_types import required_keys, shape_problem, type_problem, typed_shape


class _Inner(TypedDict, total=False):
    cpu: int
    name: str | None


class _Outer(TypedDict, total=False):
    minutes: Required[float]
    items: list[_Inner]
    note: str


class _Total(TypedDict):
    level: str
    detail: NotRequired[str]


def test_required_keys_are_read_from_the_resolved_annotations():
    assert required_keys(_Outer) == ("minutes",)
    assert required_keys(_Total) == ("level",)
    assert required_keys(_Inner) == ()
    assert required_keys(dict) == ()
    assert set(typed_shape(_Outer)) == {"minutes", "items", "note"}


@pytest.mark.parametrize(
    "value, says",
    [
        ({"minutes": 1.5, "items": [{"cpu": 0, "name": None}], "extra": "the writer's own"}, ""),
        ({"items": []}, "has no minutes"),
        ({"minutes": "1"}, "its member 'minutes': not a number"),
        ({"minutes": 1, "items": [{"cpu": "0"}]}, "its member 'items': item 0: its member 'cpu': not an integer"),
        ({"minutes": 1, "items": [7]}, "its member 'items': an item is not an object"),
        ({"minutes": 1, "note": 3}, "its member 'note': not a string"),
        ({"minutes": float("nan")}, "its member 'minutes': not a finite number"),
        ([], "not an object"),
    ],
)
def test_a_value_is_checked_against_its_typed_dict(value, says):
    assert type_problem(value, _Outer) == says


def test_a_union_names_its_kinds_in_words():
    assert type_problem({"cpu": 0, "name": 5}, _Inner) == "its member 'name': not a string"
    assert shape_problem({"x": "1"}, {"x": bool | int}) == "its member 'x': not a boolean or an integer"
