"""A model file inferred from a JSON document (`just payload FILE`, `harness infer-model FILE`): the declaration a
typed parse and serialize of the document needs, written out for the user to review and edit
(harness/config/data/declared_models.py reads it like any other).

Rules, each a choice the user can change in the file: an object whose member names are all C# identifiers (at most
200) is a type, named after the member that holds it (array items after the array, singular); any other object is a
Dictionary<string, V>; objects at one place merge (a member some lack, or that is sometimes null, is nullable);
integers are the narrowest of int, long, ulong that holds every value seen, any other number a double; strings stay
strings (a date or a Guid is a type you choose); arrays are List<T>; a member only ever null or an array only ever empty
is a nullable string. A place holding two kinds of value (a number here, a string there) has no typed model: an
InferenceError says where, and the document is still measured untyped."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from harness.config.data.clr_names import reserved_type_name
from harness.config.data.declared_models import MAX_PROPERTIES, MAX_TYPES
from harness.config.data.model_types import IDENTIFIER, INTEGER_RANGES, MAX_DEPTH

#: The root's name: a dataset inferred from a document names model "<space>.document".
ROOT = "document"


class InferenceError(ValueError):
    """The document has no typed model (two kinds of value at one place, too many shapes, too deep)."""


@dataclass
class Shape:
    """What was seen at one place of the document: the kinds of value, and for each kind what it holds."""

    kinds: set[str] = field(default_factory=set)  # "null", "bool", "int", "number", "string", "array", "object"
    low: int = 0
    high: int = 0
    items: Shape | None = None  # an array's elements
    members: dict[str, Shape] = field(default_factory=dict)  # an object's members, first seen first
    seen: int = 0  # objects seen here (a member seen in fewer is nullable)
    present: dict[str, int] = field(default_factory=dict)


def observe(shape: Shape, value: Any) -> None:
    """Adds one value to the shape of its place."""
    if value is None:
        shape.kinds.add("null")
    elif isinstance(value, bool):
        shape.kinds.add("bool")
    elif isinstance(value, int):
        shape.low, shape.high = (
            (value, value) if "int" not in shape.kinds else (min(shape.low, value), max(shape.high, value))
        )
        shape.kinds.add("int")
    elif isinstance(value, float):
        shape.kinds.add("number")
    elif isinstance(value, str):
        shape.kinds.add("string")
    elif isinstance(value, list):
        shape.kinds.add("array")
        shape.items = shape.items or Shape()
        for item in value:
            observe(shape.items, item)
    else:
        shape.kinds.add("object")
        shape.seen += 1
        for name, member in value.items():
            shape.present[name] = shape.present.get(name, 0) + 1
            observe(shape.members.setdefault(name, Shape()), member)


@dataclass
class Inference:
    """The types named so far (name → its TOML lines), and each place's type expression."""

    types: dict[str, list[tuple[str, str]]] = field(default_factory=dict)

    def type_of(self, shape: Shape, name: str, where: str, depth: int = 0) -> str:
        if depth > MAX_DEPTH:
            raise InferenceError(f"{where}: containers nest deeper than {MAX_DEPTH}, which a model cannot declare")
        kinds = shape.kinds - {"null"}
        nullable = "null" in shape.kinds
        if kinds == {"int", "number"}:
            kinds = {"number"}
        if len(kinds) > 1:
            raise InferenceError(f"{where} holds {' and '.join(sorted(kinds))} values: no one type declares it")
        kind = next(iter(kinds), "null")
        if kind == "null":
            return "string?"
        if kind == "array":
            item = self.type_of(shape.items or Shape(), singular(name), f"{where}[]", depth + 1)
            return f"List<{item}>" + ("?" if nullable else "")
        if kind == "object":
            return self.object_type(shape, name, where, depth) + ("?" if nullable else "")
        text = {"bool": "bool", "string": "string", "number": "double"}.get(kind) or narrowest(shape.low, shape.high)
        return f"{text}?" if nullable else text

    def object_type(self, shape: Shape, name: str, where: str, depth: int) -> str:
        names = list(shape.members)
        if len(names) > MAX_PROPERTIES or not all(IDENTIFIER.fullmatch(n) for n in names) or not names:
            values = Shape()
            for value in shape.members.values():  # a map: every value at one place
                merge(values, value)
            return f"Dictionary<string, {self.type_of(values, singular(name), f'{where}.*', depth + 1)}>"
        type_name = self.fresh_name(pascal(name), names)
        self.types[type_name] = []  # reserved before the members, which may name their own types
        lines = []
        for member, sub in shape.members.items():  # a type of its own: its members start new expressions (depth 0)
            text = self.type_of(sub, member, f"{where}.{member}")
            if shape.present[member] < shape.seen and not text.endswith("?"):
                text += "?"
            lines.append((member, text))
        same = next((n for n, body in self.types.items() if n != type_name and body == lines), None)
        if same is not None:  # the same shape at another place: one type
            del self.types[type_name]
            return same
        self.types[type_name] = lines
        return type_name

    def fresh_name(self, base: str, members: list[str]) -> str:
        if len(self.types) >= MAX_TYPES:
            raise InferenceError(f"the document has more than {MAX_TYPES} object shapes: too many to declare")
        candidate, number = base, 1
        while candidate in self.types or candidate in members or reserved_type_name(candidate):
            number += 1
            candidate = f"{base}{number}"
        return candidate


def merge(into: Shape, other: Shape) -> None:
    """Folds one place's shape into another's (a map's values)."""
    if "int" in other.kinds:
        into.low, into.high = (
            (other.low, other.high)
            if "int" not in into.kinds
            else (min(into.low, other.low), max(into.high, other.high))
        )
    into.kinds |= other.kinds
    if other.items is not None:
        into.items = into.items or Shape()
        merge(into.items, other.items)
    into.seen += other.seen
    for name, member in other.members.items():
        into.present[name] = into.present.get(name, 0) + other.present.get(name, 0)
        merge(into.members.setdefault(name, Shape()), member)


def narrowest(low: int, high: int) -> str:
    for name in ("int", "long", "ulong"):
        least, most = INTEGER_RANGES[name]
        if least <= low and high <= most:
            return name
    return "double"


def pascal(name: str) -> str:
    words = [w for w in re.split(r"[^A-Za-z0-9]+|_", name) if w]
    text = "".join(w[:1].upper() + w[1:] for w in words) or "Item"
    return text if text[0].isalpha() else f"T{text}"


def singular(name: str) -> str:
    if name.endswith("ies") and len(name) > 3:
        return name[:-3] + "y"
    if name.endswith(("ses", "xes", "ches", "shes")):
        return name[:-2]
    if name.endswith("s") and not name.endswith("ss") and len(name) > 1:
        return name[:-1]
    return f"{name}Item"


def infer_model(document: Any, source: str) -> str:
    """The model file's text for a parsed JSON document (an object or an array)."""
    shape, inference = Shape(), Inference()
    try:
        observe(shape, document)
        root = inference.type_of(shape, "Document" if isinstance(document, dict) else "Documents", "$")
    except RecursionError:
        raise InferenceError("the document nests too deep for a typed model") from None
    lines = [
        f"# Inferred from {source} by harness/codegen/infer_model.py: review it (a date or a Guid is a string",
        "# here, every number that is not an integer a double), edit it; the next run builds it (docs/experiments.md).",
        "schema_version = 1",
        f"description = {json.dumps('inferred from ' + source)}",
        "",
        "[roots]",
        f"{ROOT} = {json.dumps(root)}",
    ]
    for name, members in inference.types.items():
        lines += ["", f"[types.{name}]"] + [f"{member} = {json.dumps(text)}" for member, text in members]
    return "\n".join(lines) + "\n"
