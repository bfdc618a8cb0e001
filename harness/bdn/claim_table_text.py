"""Claims written as the experiment file's tables (harness/config/experiment/claim_tables.py reads them back): one
`[[claim_tables]]` per kind of claim (the same fields), the fields every row has alike set once, the others as
columns, a row per claim, and each row's source named in a comment beside it."""

from __future__ import annotations

from collections.abc import Sequence

from harness.bdn.toml_text import toml_value
from harness.model.json_value import JsonMapping, JsonObject


def claim_tables_text(claims: Sequence[tuple[str, JsonMapping]]) -> list[str]:
    """(source, claim fields) in file order → one table per kind of claim (the same fields), in order of first row: the
    fields all its rows have alike set once, the others as columns, each row's source in a comment beside it."""
    by_shape: dict[tuple[str, ...], list[tuple[str, JsonObject]]] = {}
    for source, claim in claims:
        flat = _flat(claim)
        by_shape.setdefault(tuple(flat), []).append((source, flat))
    out: list[str] = []
    for rows in by_shape.values():
        fields = list(rows[0][1])
        shared = [k for k in fields if all(row[k] == rows[0][1][k] for _, row in rows)]
        columns = [k for k in fields if k not in shared]
        if "published_variant" not in columns:  # a row's identity stays a column, so the table reads as rows
            columns, shared = ["published_variant", *columns], [k for k in shared if k != "published_variant"]
        out.append("[[claim_tables]]")
        out += [f"{k} = {toml_value(rows[0][1][k])}" for k in shared]
        out.append(f"columns = {toml_value(columns)}")
        out.append("rows = [")
        out += [f"    [{', '.join(toml_value(row[k]) for k in columns)}],  # {source}" for source, row in rows]
        out += ["]", ""]
    return out


def _flat(claim: JsonMapping) -> JsonObject:
    """at = {runtime = …} as the column "at.runtime": one cell per value."""
    flat: JsonObject = {}
    for key, value in claim.items():
        if isinstance(value, dict):
            flat |= {f"{key}.{inner}": v for inner, v in value.items()}
        else:
            flat[key] = value
    return flat
