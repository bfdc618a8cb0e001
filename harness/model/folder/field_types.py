"""Whether a value read from a run folder fits the field it fills: the one check of JSON values against a dataclass's
annotations, for result rows (harness/model/folder/records.py) and the run's other records (run_records.py). A run
folder handed to the lab is untrusted: a value of another type, a number that is not finite, or a text longer than
MAX_TEXT is an error naming the field, never a traceback further on."""

from __future__ import annotations

import functools
import math
import types
import typing
from typing import Any, Mapping

_NONE_TYPE = type(None)
#: The hint of every error reading a run folder's record.
RECORD_HINT = "the file was written by another harness version or edited by hand; re-run, or restore it"
#: The longest text a run-folder field may hold (a lab's error, a compiler's first lines, a path): a longer one was not
#: written by the harness, and a report would carry it whole.
MAX_TEXT = 64 << 10


_HINTS: dict[str, dict[str, object]] = {}


def field_hints(cls: type) -> dict[str, object]:
    """The resolved annotations of a dataclass, by field name (resolved once per class)."""
    key = f"{cls.__module__}.{cls.__qualname__}"
    if key not in _HINTS:
        _HINTS[key] = typing.get_type_hints(cls)
    return _HINTS[key]


def shown(value: object) -> str:
    """A value as an error message shows it: its repr, at most 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def type_problem(value: object, hint: object) -> str:
    """Why a value does not fit a field's type ('' when it does): None, bool, int, finite float, str, dict, list of
    fitting items, a TypedDict's keys (shape_problem); any other annotation (a nested record, made typed before) is not
    checked here."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        problems = [type_problem(value, arg) for arg in typing.get_args(hint)]
        if "" in problems:
            return ""
        present = [p for arg, p in zip(typing.get_args(hint), problems) if arg is not _NONE_TYPE]
        if value is not None and len(present) == 1:
            return present[0]  # one kind of value allowed besides null: say what is wrong with it (where, inside)
        return f"not {' or '.join(_type_name(arg) for arg in typing.get_args(hint))}"
    if hint is Any:
        return ""
    if isinstance(hint, type) and typing.is_typeddict(hint):
        return shape_problem(value, typed_shape(hint), required_keys(hint))
    if hint is _NONE_TYPE:
        return "" if value is None else "not null"
    if hint is bool:
        return "" if isinstance(value, bool) else "not a boolean"
    if hint is int:
        return "" if isinstance(value, int) and not isinstance(value, bool) else "not an integer"
    if hint is float:
        if isinstance(value, bool) or not isinstance(value, (int, float)):
            return "not a number"
        return "" if math.isfinite(value) else "not a finite number"
    if hint is str:
        if not isinstance(value, str):
            return "not a string"
        return "" if len(value) <= MAX_TEXT else f"a text of {len(value):,} characters; at most {MAX_TEXT:,}"
    if origin is dict or hint is dict:
        if not isinstance(value, dict):
            return "not an object"
        key, item = typing.get_args(hint) or (Any, Any)
        return next(
            (
                f"its member {shown(k)}: {p}"
                for k, v in value.items()
                if (p := type_problem(k, key) or type_problem(v, item))
            ),
            "",
        )
    if origin is list or hint is list:
        if not isinstance(value, (list, tuple)):  # a tuple: a record checked as it is written, before JSON
            return "not a list"
        inner = typing.get_args(hint)
        return next(
            (
                f"item {index}: {p}" if p.startswith(("its member", "has no")) else f"an item is {p}"
                for index, item in enumerate(value)
                if (p := type_problem(item, inner[0] if inner else Any))
            ),
            "",
        )
    return ""


#: A JSON object's declared shape: each key's type (a typing form: int, list[int], str | None, a TypedDict …).
Shape = Mapping[str, object]


def typed_shape(record: type) -> Shape:
    """The shape a TypedDict declares (its resolved annotations): the one home of a stored sub-record's keys, read by
    shape_problem and by mypy at every use."""
    return field_hints(record)


@functools.cache
def required_keys(record: type) -> tuple[str, ...]:
    """The keys a TypedDict requires (none for a dataclass's shape, whose fields from_dict checks itself). Read from
    the resolved annotations: under postponed annotations Python 3.11 cannot see Required/NotRequired itself."""
    if not typing.is_typeddict(record):
        return ()
    marked = {key: typing.get_origin(hint) for key, hint in typing.get_type_hints(record, include_extras=True).items()}
    required = set(getattr(record, "__required_keys__", ())) | {
        key for key, origin in marked.items() if origin is typing.Required
    }
    return tuple(sorted(required - {key for key, origin in marked.items() if origin is typing.NotRequired}))


def shape_problem(value: object, fields: Shape, required: tuple[str, ...] = ()) -> str:
    """Why a JSON object does not fit a stored shape ('' when it does): not an object, a `required` key missing, or a
    key of `fields` whose value does not fit its type; a key the shape does not name is left alone (the writer's
    own). For the dictionaries a record keeps as written (a CPU's state, a host's facts, an ISA level's probe)."""
    if not isinstance(value, dict):
        return "not an object"
    missing = [key for key in required if key not in value]
    if missing:
        return f"has no {', '.join(missing)}"
    return next(
        (
            f"its member {key!r}: {p}"
            for key, hint in fields.items()
            if key in value and (p := type_problem(value[key], hint))
        ),
        "",
    )


_NAMES = {_NONE_TYPE: "null", bool: "a boolean", int: "an integer", float: "a number", str: "a string"}


def _type_name(hint: Any) -> str:
    """'a boolean', 'an integer', 'null', 'list' …: a type as an error message says it."""
    return _NAMES.get(hint) or str(getattr(typing.get_origin(hint) or hint, "__name__", hint))
