"""Reading a data file a user hands the lab (an experiment, a profile table, a lab.toml, hosts.toml, a dataset
manifest, local settings): bounded, decoded and parsed, every failure a ConfigError naming the file and the fix,
never a traceback; and the values inside checked for what no schema says (finite numbers, bounded text without
invisible characters or lone surrogates, bounded nesting).
"""

from __future__ import annotations

import datetime
import json
import math
import pathlib
from collections.abc import Iterator
from typing import TypeAlias, Union

import tomllib

# the characters a value may not hold (the patterns' one home; imported reports are searched with INVISIBLE from here)
from harness.model.characters import INVISIBLE, LONE_SURROGATE, code_point
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError
from harness.model.json_value import JsonValue

#: Largest data file read (the biggest committed one, datasets/manifest.json, is tens of KB).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Longest string value (a note of a few sentences is a few hundred characters).
MAX_TEXT = 4000
#: Deepest nesting of tables and arrays (the lab's files nest four levels).
MAX_DEPTH = 16

#: One value of a TOML document as tomllib reads it: JSON's kinds but null, and TOML's own date, time and date-time
#: (datetime.date, datetime.time, datetime.datetime: check_values lets them through, so a reader narrows them too).
TomlValue: TypeAlias = Union[
    bool, int, float, str, datetime.date, datetime.time, list["TomlValue"], dict[str, "TomlValue"]
]
#: A TOML table: a document's top level, or a [table] in it.
TomlTable: TypeAlias = dict[str, TomlValue]


def toml_table(value: TomlValue | None) -> TomlTable:
    """`value` when it is a table, else an empty one (json_value.as_object's counterpart for a TOML value)."""
    return value if isinstance(value, dict) else {}


def toml_array(value: TomlValue | None) -> list[TomlValue]:
    """`value` when it is an array, else an empty one."""
    return value if isinstance(value, list) else []


def display(path: pathlib.Path) -> str:
    """A file's path as the user typed it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def read_text(path: pathlib.Path, fix: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The file's text as UTF-8, a CRLF line ending read as a newline (a file saved on Windows); ConfigError when it is
    missing, unreadable, larger than max_bytes, binary or not UTF-8 (naming the line of the first bad byte)."""
    try:
        size = path.stat().st_size
        if size > max_bytes:
            raise ConfigError(f"{display(path)} is {size:,} bytes, more than a data file may be ({max_bytes:,})", fix)
        raw = path.read_bytes()
    except OSError as e:
        raise ConfigError(f"{display(path)} cannot be read: {e.strerror or e}", fix) from None
    if b"\0" in raw:
        line = raw[: raw.index(b"\0")].count(b"\n") + 1
        raise ConfigError(f"{display(path)} is binary (a NUL byte on line {line}), not a text file", fix)
    try:
        return raw.decode("utf-8").replace("\r\n", "\n")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ConfigError(
            f"{display(path)} is not UTF-8 (byte {raw[e.start]:#04x} on line {line})", f"save it as UTF-8; {fix}"
        ) from None


def read_toml(path: pathlib.Path, fix: str, max_bytes: int = MAX_FILE_BYTES) -> TomlTable:
    """The file's TOML table, read with read_text and checked with check_values."""
    text = read_text(path, fix, max_bytes)
    try:
        data: TomlTable = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{display(path)} is not valid TOML: {e}", f"fix the line it names; {fix}") from None
    except RecursionError:
        raise ConfigError(f"{display(path)} nests deeper than TOML can be read", fix) from None
    check_values(data, path)
    return data


def read_json(path: pathlib.Path, fix: str, max_bytes: int = MAX_FILE_BYTES) -> JsonValue:
    """The file's JSON value, read with read_text and checked with check_values (NaN and Infinity refused)."""
    text = read_text(path, fix, max_bytes)
    try:
        data: JsonValue = json.loads(text, parse_constant=_no_constant)
    except json.JSONDecodeError as e:
        raise ConfigError(f"{display(path)} is not valid JSON: {e}", f"fix the line it names; {fix}") from None
    except RecursionError:
        raise ConfigError(f"{display(path)} nests deeper than JSON can be read", fix) from None
    except ValueError as e:
        raise ConfigError(f"{display(path)}: {e}", fix) from None
    check_values(data, path)
    return data


def _no_constant(name: str) -> float:
    raise ValueError(f"{name} is not a number a data file may hold")


def check_values(data: object, path: pathlib.Path) -> None:
    """ConfigError for the first value no schema refuses but the lab must: a NaN or infinite number, a string longer
    than MAX_TEXT, holding an invisible character or a lone surrogate, nesting deeper than MAX_DEPTH; each named by
    its key path (a key by the path of its table and "(key)")."""
    for where, problem, fix in _problems(data, ()):
        raise ConfigError(f"{display(path)}: {_key_path(where)} {problem}", fix)


_FIX_NUMBER = "a figure must be a finite number (TOML's nan and inf, JSON's NaN and Infinity are not figures)"
_FIX_LENGTH = f"keep text values under {MAX_TEXT} characters: put long prose in the write-up, not the data file"
_FIX_INVISIBLE = (
    "remove it: control, zero-width and bidirectional characters (U+200B-U+200F, U+061C, U+202A-U+202E, "
    "U+2060-U+2069, U+FEFF, a carriage return) make a text read differently from what it holds, and two names that "
    "look the same differ"
)
_FIX_SURROGATE = (
    "write the character whole (an escaped pair such as \\ud83d\\ude00, or the character itself in UTF-8), or "
    "remove the escape: half a UTF-16 pair is not Unicode"
)
_FIX_DEPTH = f"a data file nests at most {MAX_DEPTH} tables or arrays deep"

Problem = tuple[tuple[str | int, ...], str, str]


def _text_problem(text: str, where: tuple[str | int, ...]) -> Problem | None:
    """What is wrong with one string (a value or a key), or None."""
    if len(text) > MAX_TEXT:
        return where, f"has {len(text):,} characters, more than {MAX_TEXT}", _FIX_LENGTH
    if (bad := INVISIBLE.search(text)) is not None:
        return where, f"holds the invisible character {code_point(bad.group(0))}", _FIX_INVISIBLE
    if (bad := LONE_SURROGATE.search(text)) is not None:
        return where, f"holds a lone surrogate {code_point(bad.group(0))} (half a UTF-16 pair)", _FIX_SURROGATE
    return None


def _problems(value: object, where: tuple[str | int, ...]) -> Iterator[Problem]:
    if len(where) > MAX_DEPTH:
        yield where, f"nests more than {MAX_DEPTH} levels deep", _FIX_DEPTH
        return
    if isinstance(value, float) and not math.isfinite(value):
        yield where, f"is {value!r}, not a finite number", _FIX_NUMBER
    elif isinstance(value, str):
        if (problem := _text_problem(value, where)) is not None:
            yield problem
    elif isinstance(value, dict):
        for key, item in value.items():
            if (problem := _text_problem(str(key), (*where, "(key)"))) is not None:
                yield problem
            yield from _problems(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _problems(item, (*where, index))


def _key_path(parts: tuple[str | int, ...]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the top level"
