"""JSON as the harness passes it on before (or without) a declared shape: a tool's own report (BenchmarkDotNet,
hyperfine, Google Benchmark, the browser's DevTools events), a lab's listing, a JSON Schema, a TOML document before its
checks. `JsonValue` is closed (null, boolean, number, text, list, object), unlike `Any`, so mypy makes every reader
narrow a member before it uses it; the `as_*` functions narrow one member, a member of another type reading as absent
(the caller then says what is missing, naming the file). A document whose shape the harness owns gets a TypedDict or
a record instead (harness/model/folder/), declared once and checked on read (field_types.type_problem)."""

from __future__ import annotations

import math
import typing
from typing import TYPE_CHECKING, Mapping, TypeAlias, Union

#: One JSON value, as json.loads returns it (a TOML document reads as the same kinds, its dates aside). At run time
#: its inner references name this module, so that typing.get_type_hints resolves a record's field of this type in any
#: module (field_types.type_problem then checks the outer levels; deeper ones are the writer's).
if TYPE_CHECKING:
    JsonValue: TypeAlias = Union[None, bool, int, float, str, list["JsonValue"], dict[str, "JsonValue"]]
else:
    _INNER = typing.ForwardRef("JsonValue", module=__name__)
    JsonValue = Union[None, bool, int, float, str, list[_INNER], dict[str, _INNER]]
#: A JSON object as read or as built to be written.
JsonObject: TypeAlias = dict[str, JsonValue]
#: A JSON object as a reader takes it: any mapping of JSON values (a dict[str, str] is one; a dict is invariant).
JsonMapping: TypeAlias = Mapping[str, JsonValue]


def as_object(value: object) -> JsonObject:
    """`value` when it is a JSON object, else an empty one."""
    return value if isinstance(value, dict) else {}


def as_array(value: object) -> list[JsonValue]:
    """`value` when it is a JSON array, else an empty one."""
    return value if isinstance(value, list) else []


def as_number(value: object) -> float | None:
    """`value` when it is a finite number (not a boolean), else None."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    return value if math.isfinite(value) else None


def as_text(value: object) -> str | None:
    """`value` when it is a text, else None."""
    return value if isinstance(value, str) else None
