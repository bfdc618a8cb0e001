"""The type expressions of a declared model (datasets/models/*.toml): a JSON-mappable primitive, a declared type or
enum, and the containers around them, written as C# writes them:

    int   ulong?   DateTimeOffset   Order   Order[]   List<Order>   Dictionary<string, decimal?>   List<int[]>

Parsed into a small tree (TypeRef) every emitter reads; anything else is an error naming the forms there are."""

from __future__ import annotations

import re
from dataclasses import dataclass

#: The primitives, by their C# names, with the JSON they map to (for docs, inference and the JSON Schema emitter).
PRIMITIVES: dict[str, str] = {
    "bool": "true or false",
    "byte": "integer 0..255",
    "sbyte": "integer -128..127",
    "short": "integer -32768..32767",
    "ushort": "integer 0..65535",
    "int": "32-bit integer",
    "uint": "unsigned 32-bit integer",
    "long": "64-bit integer",
    "ulong": "unsigned 64-bit integer",
    "float": "number (single precision)",
    "double": "number",
    "decimal": "number (decimal, exact to 28 digits)",
    "char": "string of one UTF-16 code unit",
    "string": "string",
    "DateTime": "ISO 8601 date-time string",
    "DateTimeOffset": "ISO 8601 date-time string with offset",
    "Guid": "GUID string",
}
#: Integer primitives and their ranges (inclusive).
INTEGER_RANGES: dict[str, tuple[int, int]] = {
    "byte": (0, 255),
    "sbyte": (-128, 127),
    "short": (-(2**15), 2**15 - 1),
    "ushort": (0, 2**16 - 1),
    "int": (-(2**31), 2**31 - 1),
    "uint": (0, 2**32 - 1),
    "long": (-(2**63), 2**63 - 1),
    "ulong": (0, 2**64 - 1),
}
#: Primitives that are value types (nullable only when written T?).
VALUE_PRIMITIVES = frozenset(PRIMITIVES) - {"string"}
#: How deep containers may nest in one expression, and how long an expression may be.
MAX_DEPTH = 6
MAX_LENGTH = 200
IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,63}")
_TOKEN = re.compile(r"\s*(?:(?P<word>[A-Za-z_][A-Za-z0-9_]*)|(?P<mark>\[\]|[<>,?]))")
FORMS = "a primitive (" + ", ".join(PRIMITIVES) + "), a declared type or enum, T?, T[], List<T>, Dictionary<string, T>"


@dataclass(frozen=True)
class TypeRef:
    """One node of a type expression: kind is "primitive", "named", "array", "list", "map" or "nullable"; name is the
    primitive's or declared type's name; item is the element (value, underlying) type of a container."""

    kind: str
    name: str = ""
    item: TypeRef | None = None

    def text(self) -> str:
        """The expression as C# writes it (canonical spacing)."""
        inner = self.item.text() if self.item else ""
        return {
            "primitive": self.name,
            "named": self.name,
            "array": f"{inner}[]",
            "list": f"List<{inner}>",
            "map": f"Dictionary<string, {inner}>",
            "nullable": f"{inner}?",
        }[self.kind]

    def named(self) -> set[str]:
        """The declared types and enums this expression names."""
        if self.kind == "named":
            return {self.name}
        return self.item.named() if self.item else set()


class TypeSyntaxError(ValueError):
    """A type expression that is not one of FORMS."""


def parse_type(text: str) -> TypeRef:
    """The TypeRef of `text`; TypeSyntaxError naming what is wrong otherwise."""
    if not isinstance(text, str) or not text.strip():
        raise TypeSyntaxError(f"a type is a string: {FORMS}")
    if len(text) > MAX_LENGTH:
        raise TypeSyntaxError(f"a type expression is at most {MAX_LENGTH} characters")
    tokens = _tokens(text)
    ref, rest = _expression(tokens, 0)
    if rest:
        raise TypeSyntaxError(f"{text!r}: unexpected {''.join(rest)!r}; {FORMS}")
    return ref


def _tokens(text: str) -> list[str]:
    tokens, at = [], 0
    while at < len(text):
        if text[at:].strip() == "":
            break
        match = _TOKEN.match(text, at)
        if not match:
            raise TypeSyntaxError(f"{text!r}: unexpected {text[at:].strip()[:1]!r}; {FORMS}")
        tokens.append(match.group("word") or match.group("mark"))
        at = match.end()
    return tokens


def _expression(tokens: list[str], depth: int) -> tuple[TypeRef, list[str]]:
    if depth > MAX_DEPTH:
        raise TypeSyntaxError(f"containers nest at most {MAX_DEPTH} deep")
    if not tokens or not IDENTIFIER.fullmatch(tokens[0]):
        raise TypeSyntaxError(f"expected a type name; {FORMS}")
    word, rest = tokens[0], tokens[1:]
    if word == "List" and rest[:1] == ["<"]:
        item, rest = _expression(rest[1:], depth + 1)
        ref, rest = TypeRef("list", item=item), _expect(rest, ">")
    elif word == "Dictionary" and rest[:1] == ["<"]:
        if rest[1:3] != ["string", ","]:
            raise TypeSyntaxError("a dictionary is keyed by strings: Dictionary<string, T>")
        item, rest = _expression(rest[3:], depth + 1)
        ref, rest = TypeRef("map", item=item), _expect(rest, ">")
    elif word in ("List", "Dictionary"):
        raise TypeSyntaxError(f"{word} needs its type arguments: List<T>, Dictionary<string, T>")
    else:
        ref = TypeRef("primitive" if word in PRIMITIVES else "named", name=word)
    level = depth
    while rest[:1] in (["[]"], ["?"]):
        if rest[0] == "?" and ref.kind == "nullable":
            raise TypeSyntaxError("T?? is not a type: one ? makes a type nullable")
        level += rest[0] == "[]"  # an array is a container like List<T>
        if level > MAX_DEPTH:
            raise TypeSyntaxError(f"containers nest at most {MAX_DEPTH} deep")
        ref = TypeRef("array" if rest[0] == "[]" else "nullable", item=ref)
        rest = rest[1:]
    return ref, rest


def _expect(tokens: list[str], mark: str) -> list[str]:
    if tokens[:1] != [mark]:
        raise TypeSyntaxError(f"expected {mark!r}; {FORMS}")
    return tokens[1:]
