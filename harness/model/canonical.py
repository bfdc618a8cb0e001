"""The canonical form of a JSON document that every lab's parse result is compared against (jsonlab-canonical-v1).

The document becomes a sequence of leaf records in document order, object members sorted by the UTF-8 bytes of their
names; a leaf is a scalar, or an empty object or array. Each record is

    <pointer byte length>:<RFC 6901 pointer> <kind> <value byte length>:<value>\\n

with kind one of null, true, false, number, string, {}, []. A number's value is the 16 hex digits of its IEEE-754 double
(big-endian, -0 written as +0): numbers compare by the double they denote, the precision JSON.parse offers, so an
integer beyond 2^53 compares as its nearest double (RFC 8259 §6). A lone surrogate in a string or name counts as
U+FFFD. The sha256 of all records and their count are the dataset's digest, kept in datasets/manifest.json
(`canonical`); each lab computes the same digest of its own parse result (lab/reference-node/src/canonical.js), so
three implementations must agree before a cross-language chart is drawn.
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections.abc import Iterator
from typing import TypedDict

from harness.model.characters import LONE_SURROGATE
from harness.model.json_value import JsonValue

RULE = "jsonlab-canonical-v1"


class CanonicalDigest(TypedDict):
    """A document's canonical digest, as datasets/manifest.json keeps it (`canonical`): the rule, the sha256 of its
    records and their count."""

    rule: str
    sha256: str
    leaves: int


def _utf8(text: str) -> bytes:
    return LONE_SURROGATE.sub("\ufffd", text).encode("utf-8")


def _record(pointer: str, kind: str, value: bytes = b"") -> bytes:
    name = _utf8(pointer)
    return b"%d:%s %s %d:%s\n" % (len(name), name, kind.encode(), len(value), value)


def _records(value: JsonValue, pointer: str) -> Iterator[bytes]:
    if value is None:
        yield _record(pointer, "null")
    elif value is True:
        yield _record(pointer, "true")
    elif value is False:
        yield _record(pointer, "false")
    elif isinstance(value, float):
        yield _record(pointer, "number", struct.pack(">d", value if value != 0 else 0.0).hex().encode())
    elif isinstance(value, str):
        yield _record(pointer, "string", _utf8(value))
    elif isinstance(value, list):
        if not value:
            yield _record(pointer, "[]")
        for index, item in enumerate(value):
            yield from _records(item, f"{pointer}/{index}")
    elif isinstance(value, dict):
        if not value:
            yield _record(pointer, "{}")
        for name in sorted(value, key=_utf8):
            yield from _records(value[name], f"{pointer}/{name.replace('~', '~0').replace('/', '~1')}")
    else:
        raise TypeError(f"not a JSON value: {type(value).__name__}")


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def parse(data: bytes) -> JsonValue:
    """The document (after a UTF-8 byte order mark, which RFC 8259 §8.1 lets a parser ignore) with every number as the
    double nearest to it (integers too, correctly rounded)."""
    return json.loads(
        data.decode("utf-8-sig"),
        parse_int=lambda text: float(int(text)),
        parse_float=float,
        parse_constant=_reject_constant,
    )


def canonical_digest(data: bytes) -> CanonicalDigest:
    """{"rule", "sha256", "leaves"} of one JSON document's bytes."""
    digest = hashlib.sha256()
    leaves = 0
    for record in _records(parse(data), ""):
        digest.update(record)
        leaves += 1
    return {"rule": RULE, "sha256": digest.hexdigest(), "leaves": leaves}
