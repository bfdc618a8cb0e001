"""Reading a data file a user hands the lab (an experiment, a profile table, a lab.toml, hosts.toml, a dataset
manifest, local settings): bounded, decoded and parsed, every failure a ConfigError naming the file and the fix,
never a traceback; and the values inside checked for what no schema says (finite numbers, bounded text without
invisible characters, bounded nesting).
"""

from __future__ import annotations

import json
import math
import pathlib
import re
from collections.abc import Iterator
from typing import Any

import tomllib

from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

#: Largest data file read (the biggest committed one, datasets/manifest.json, is tens of KB).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Longest string value (a note of a few sentences is a few hundred characters).
MAX_TEXT = 4000
#: Deepest nesting of tables and arrays (the lab's files nest four levels).
MAX_DEPTH = 16
#: Control characters (tab, newline and carriage return allowed) and the bidirectional embedding, override and isolate
#: characters, which make a text read differently from what it holds.
INVISIBLE = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")


def display(path: pathlib.Path) -> str:
    """A file's path as the user typed it: relative to the repository when inside it."""
    try:
        return str(path.resolve().relative_to(REPO_ROOT))
    except ValueError:
        return str(path)


def read_text(path: pathlib.Path, fix: str, max_bytes: int = MAX_FILE_BYTES) -> str:
    """The file's text as UTF-8; ConfigError when it is missing, unreadable, larger than max_bytes, binary or not
    UTF-8 (naming the line of the first bad byte)."""
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
        return raw.decode("utf-8")
    except UnicodeDecodeError as e:
        line = raw[: e.start].count(b"\n") + 1
        raise ConfigError(
            f"{display(path)} is not UTF-8 (byte {raw[e.start]:#04x} on line {line})", f"save it as UTF-8; {fix}"
        ) from None


def read_toml(path: pathlib.Path, fix: str, max_bytes: int = MAX_FILE_BYTES) -> dict[str, Any]:
    """The file's TOML table, read with read_text and checked with check_values."""
    text = read_text(path, fix, max_bytes)
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise ConfigError(f"{display(path)} is not valid TOML: {e}", f"fix the line it names; {fix}") from None
    except RecursionError:
        raise ConfigError(f"{display(path)} nests deeper than TOML can be read", fix) from None
    check_values(data, path)
    return data


def read_json(path: pathlib.Path, fix: str, max_bytes: int = MAX_FILE_BYTES) -> Any:
    """The file's JSON value, read with read_text and checked with check_values (NaN and Infinity refused)."""
    text = read_text(path, fix, max_bytes)
    try:
        data = json.loads(text, parse_constant=_no_constant)
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


def check_values(data: Any, path: pathlib.Path) -> None:
    """ConfigError for the first value no schema refuses but the lab must: a NaN or infinite number, a string longer
    than MAX_TEXT or holding an invisible character, nesting deeper than MAX_DEPTH; each named by its key path."""
    for where, problem in _problems(data, ()):
        raise ConfigError(f"{display(path)}: {_key_path(where)} {problem}", _FIX[problem.split(" ", 1)[0]])


_FIX = {
    "is": "a figure must be a finite number (TOML's nan and inf, JSON's NaN and Infinity are not figures)",
    "has": "keep text values under {MAX_TEXT} characters: put long prose in the write-up, not the data file".format(
        MAX_TEXT=MAX_TEXT
    ),
    "holds": "remove control and bidirectional-override characters (U+202A-U+202E, U+2066-U+2069): they make a "
    "text read differently from what it holds",
    "nests": f"a data file nests at most {MAX_DEPTH} tables or arrays deep",
}


def _problems(value: Any, where: tuple[str | int, ...]) -> Iterator[tuple[tuple[str | int, ...], str]]:
    if len(where) > MAX_DEPTH:
        yield where, f"nests more than {MAX_DEPTH} levels deep"
        return
    if isinstance(value, float) and not math.isfinite(value):
        yield where, f"is {value!r}, not a finite number"
    elif isinstance(value, str):
        if len(value) > MAX_TEXT:
            yield where, f"has {len(value):,} characters, more than {MAX_TEXT}"
        elif (bad := INVISIBLE.search(value)) is not None:
            yield where, f"holds the invisible character U+{ord(bad.group(0)):04X}"
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _problems(key, (*where, "(key)")) if INVISIBLE.search(str(key)) else iter(())
            yield from _problems(item, (*where, key))
    elif isinstance(value, list):
        for index, item in enumerate(value):
            yield from _problems(item, (*where, index))


def _key_path(parts: tuple[str | int, ...]) -> str:
    text = ""
    for part in parts:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text or "the top level"
