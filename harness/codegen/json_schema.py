"""The Node.js lab's code for the declared models (harness/config/data/declared_models.py): one JSON Schema per root,
`<space>.<root>.schema.json`, which its schema-compiled variant (fast-json-stringify) compiles into a serializer for the
datasets of that model (lab/reference-node/src/schemas.js looks a dataset's model up there). Every declared type is a
definition, referenced with $ref (a type may contain itself); `T?` admits null, a plain type does not (a string that is
null in the document must be declared `string?`: fast-json-stringify would write "" for it, which the verification
against the document's canonical digest refuses). Enums are their numbers."""

from __future__ import annotations

import json

from harness.config.data.declared_models import ModelSpace
from harness.config.data.model_types import INTEGER_RANGES, TypeRef
from harness.model.json_value import JsonObject

_JSON_TYPES = {"bool": "boolean", "float": "number", "double": "number", "decimal": "number"}


def schema_of(ref: TypeRef, space: ModelSpace) -> JsonObject:
    """The JSON Schema of one type expression."""
    if ref.kind == "nullable" and ref.item is not None:
        inner = schema_of(ref.item, space)
        if "type" in inner and isinstance(inner["type"], str):
            return {**inner, "type": [inner["type"], "null"]}
        return {"anyOf": [inner, {"type": "null"}]}
    if ref.kind == "primitive":
        kind = "integer" if ref.name in INTEGER_RANGES else _JSON_TYPES.get(ref.name, "string")
        return {"type": kind}
    if ref.kind == "named":
        if ref.name in {e.name for e in space.enums}:
            return {"type": "integer"}
        return {"$ref": f"#/definitions/{ref.name}"}
    assert ref.item is not None
    if ref.kind == "map":
        return {"type": "object", "additionalProperties": schema_of(ref.item, space)}
    return {"type": "array", "items": schema_of(ref.item, space)}  # T[] and List<T>


def root_schema(space: ModelSpace, root: str) -> JsonObject:
    definitions: JsonObject = {
        declared.name: {
            "type": "object",
            "properties": {prop.name: schema_of(prop.type, space) for prop in declared.properties},
        }
        for declared in space.types
    }
    return {
        "$comment": f"root {root} of datasets/{space.source} (harness/codegen/json_schema.py; do not edit)",
        **schema_of(space.roots[root], space),
        "definitions": definitions,
    }


def lab_files(spaces: list[ModelSpace]) -> dict[str, str]:
    """One schema file per root of every space."""
    return {
        f"{space.name}.{root}.schema.json": json.dumps(root_schema(space, root), indent=2) + "\n"
        for space in spaces
        for root in space.roots
    }
