"""The JSON Schema of experiment files (experiments/experiment.schema.json), shared by editors and the loader.

Editors read it through the `#:schema ./experiment.schema.json` first line of each experiment file (taplo, Even Better
TOML); the loader validates every file against it with python3-jsonschema before reading it, and turns the first
violation into one ConfigError naming the file, the key (with the claim or benchmark it belongs to) and what the key
takes. The TODO markers `just import` leaves are found here too (todo_fields); the checks report them all at once.
"""

from __future__ import annotations

import difflib
import functools
import json
import pathlib
from collections.abc import Iterator, Mapping
from typing import cast

import jsonschema

from harness.config.data_files import TomlValue, display
from harness.model.defaults import EXPERIMENT_SCHEMA_FILE
from harness.model.errors import ConfigError
from harness.model.json_value import JsonObject, as_array, as_object, as_text

#: What `just import` writes where the report cannot say; a string starting with it is a field left to fill.
TODO = "TODO"

#: The first line of every experiment file: editors that understand it validate the file while it is typed.
SCHEMA_DIRECTIVE = "#:schema ./experiment.schema.json"


@functools.cache
def load_schema(path: pathlib.Path = EXPERIMENT_SCHEMA_FILE) -> JsonObject:
    """The schema document."""
    schema: JsonObject = json.loads(path.read_text())
    return schema


@functools.cache
def _validator(path: pathlib.Path = EXPERIMENT_SCHEMA_FILE) -> jsonschema.Draft7Validator:
    schema = load_schema(path)
    jsonschema.Draft7Validator.check_schema(schema)
    return jsonschema.Draft7Validator(schema)


def key_path(data: Mapping[str, TomlValue], parts: list[str | int]) -> str:
    """'claims[3] (SystemTextJson in "single Employee string").ratio': a path into the document a reader can find."""
    text = ""
    # the document, then whatever each part leads to: a table, an array, a scalar or None
    node: TomlValue | Mapping[str, TomlValue] | None = data
    for part in parts:
        if isinstance(part, int):
            text += f"[{part}]"
            node = node[part] if isinstance(node, list) and part < len(node) else None
            if isinstance(node, dict):
                text += _entry_name(node)
        else:
            text += f".{part}" if text else part
            node = node.get(part) if isinstance(node, dict) else None
    return text


def _entry_name(entry: Mapping[str, TomlValue]) -> str:
    if isinstance(entry.get("id"), str):
        return f" ({entry['id']})"
    if isinstance(entry.get("published_variant"), str) and isinstance(entry.get("scenario"), str):
        return f" ({entry['published_variant']} in '{entry['scenario']}')"
    return ""


def _schema_at(parts: list[str | int]) -> tuple[JsonObject, JsonObject]:
    """(the schema node of the value at `parts`, the same node with its $ref resolved): the first carries the
    description
    where a property sits beside a $ref."""
    root = load_schema()

    def resolve(node: JsonObject) -> JsonObject:
        while "$ref" in node:
            node = as_object(as_object(root["definitions"])[str(node["$ref"]).rsplit("/", 1)[-1]])
        return node

    node = root
    for part in parts:
        resolved = resolve(node)
        if isinstance(part, int):
            node = as_object(resolved.get("items"))
        else:
            node = as_object(as_object(resolved.get("properties")).get(part) or resolved.get("additionalProperties"))
    return node, resolve(node)


def _describe(error: jsonschema.ValidationError, data: Mapping[str, TomlValue]) -> tuple[str, str]:
    """(message, hint) for one violation, in the words of the file and the schema's descriptions."""
    parts = list(error.absolute_path)
    where = key_path(data, parts) or "the top level"
    described, node = _schema_at(parts)
    about = _sentence(as_text(described.get("description")) or as_text(node.get("description")) or "")
    if about and parts and isinstance(parts[-1], str):
        about = f"{parts[-1]}: {about}"
    properties = as_object(node.get("properties"))
    # The failing keyword ("required", "type", ...); the stubs type it as a validator object, which it is not.
    kind = cast(str, error.validator)
    if kind == "required":
        missing = error.message.split("'")[1]
        doc = as_text(as_object(properties.get(missing)).get("description")) or ""
        required = ", ".join(map(str, as_array(node.get("required"))))
        return (
            f"{where}: missing key '{missing}'",
            f"{missing}: {_sentence(doc)}" if doc else f"required keys: {required}",
        )
    if kind == "additionalProperties":
        valid = sorted(properties)
        extra = sorted(set(error.instance) - set(valid)) if isinstance(error.instance, dict) else []
        name = extra[0] if extra else "?"
        close = difflib.get_close_matches(name, valid, n=1)
        suggestion = f" (did you mean '{close[0]}'?)" if close else ""
        return f"{where}: unknown key '{name}'{suggestion}", f"valid keys here: {', '.join(valid)}"
    if kind == "type":
        expected = (
            error.validator_value if isinstance(error.validator_value, str) else " or ".join(error.validator_value)
        )
        return f"{where} is {_show(error.instance)}, not {_article(expected)}", about or f"a {expected}"
    if kind in ("exclusiveMinimum", "minimum", "maximum", "exclusiveMaximum"):
        bound = {"exclusiveMinimum": "greater than", "minimum": "at least", "maximum": "at most"}.get(kind, "less than")
        value = error.validator_value
        return (
            f"{where} is {_show(error.instance)}; it must be {bound} {value:g}"
            if isinstance(value, float)
            else (f"{where} is {_show(error.instance)}; it must be {bound} {value}"),
            about,
        )
    if kind == "maxLength" and isinstance(error.instance, str):
        return f"{where} has {len(error.instance):,} characters, more than {error.validator_value}", about
    if kind in ("enum", "const"):
        valid = error.validator_value if kind == "enum" else [error.validator_value]
        return f"{where} is {_show(error.instance)}", f"valid: {', '.join(map(str, valid))}" + (
            f"; {about}" if about else ""
        )
    if kind == "pattern":
        return (
            f"{where} is {_show(error.instance)}, which is not a valid name here",
            about or f"it must match {error.validator_value}",
        )
    if kind == "uniqueItems":
        return f"{where} lists an item twice", about
    if kind in ("minItems", "minLength"):
        return f"{where} is empty", about
    return f"{where}: {error.message}", about


def _sentence(text: str) -> str:
    """A schema description as the rest of a hint line: 'The printed ratio …' -> 'the printed ratio …'."""
    return text[0].lower() + text[1:] if len(text) > 1 and text[0].isupper() and text[1].islower() else text


def _show(value: object) -> str:
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, bool):
        return "true (a boolean)" if value else "false (a boolean)"
    if isinstance(value, (dict, list)):
        return "a table" if isinstance(value, dict) else "an array"
    return repr(value)


def _article(kind: str) -> str:
    return {
        "integer": "an integer",
        "array": "an array",
        "object": "a table",
        "string": "a string",
        "number": "a number",
        "boolean": "a boolean",
    }.get(kind, f"a {kind}")


def todo_paths(data: Mapping[str, TomlValue]) -> tuple[str, ...]:
    """'benchmarks[0] (stj).variant', …: every field of a document that still says TODO."""
    return tuple(key_path(data, parts) for parts in todo_fields(data))


def todo_fields(
    data: TomlValue | Mapping[str, TomlValue], parts: tuple[str | int, ...] = ()
) -> Iterator[list[str | int]]:
    """The path of every string value that still says TODO (left by `just import` for the user to fill)."""
    if isinstance(data, str) and data.strip().upper().startswith(TODO):
        yield list(parts)
    elif isinstance(data, dict):
        for key, value in data.items():
            yield from todo_fields(value, (*parts, key))
    elif isinstance(data, list):
        for index, value in enumerate(data):
            yield from todo_fields(value, (*parts, index))


def validate_document(data: Mapping[str, TomlValue], path: pathlib.Path) -> None:
    """Raises ConfigError for the first schema violation by position in the file, with a count of the others."""
    order: dict[str | int, int] = {key: index for index, key in enumerate(data)}
    errors = sorted(_validator().iter_errors(data), key=lambda error: _position(error, order))
    if errors:
        message, hint = _describe(_deepest(errors[0]), data)
        more = f" (and {len(errors) - 1} more problem(s) in this file)" if len(errors) > 1 else ""
        raise ConfigError(f"{display(path)}: {message}{more}", hint or "see docs/experiments.md")


def _position(error: jsonschema.ValidationError, order: dict[str | int, int]) -> list[tuple[int, str]]:
    """Where a violation sits in the file: top-level keys in file order, then indexes, then keys."""
    parts = list(error.absolute_path)
    return [
        (order.get(p, -1), "") if i == 0 else (p, "") if isinstance(p, int) else (0, str(p))
        for i, p in enumerate(parts)
    ]


def _deepest(error: jsonschema.ValidationError) -> jsonschema.ValidationError:
    """A $ref'd or combined error's most specific cause."""
    while error.context:
        error = max(error.context, key=lambda e: len(e.absolute_path))
    return error
