"""Claims written as tables: an experiment's `[claim_defaults]` (fields every claim has unless it sets its own) and
`[[claim_tables]]` (fields its rows share, then `columns` and one array per published row), expanded into the
`[[claims]]` every other part of the harness reads, before the claims are checked against the schema:

    [claim_defaults]
    hardware = "H1"

    [[claim_tables]]
    scenario = "Serialize (Count=1) on .NET 8"     # left out: "<its benchmarks' group title> on <hardware runtime>"
    published_baseline = "Newtonsoft"
    baseline = "Newtonsoft-1"
    columns = ["published_variant", "benchmark", "mean_ns", "ratio", "at.runtime"]
    rows = [
        ["Newtonsoft", "Newtonsoft-1", 655.1, 1.0, ""],   # "" leaves the field out for that row
        ["Stj",        "Stj-1",        612.4, 0.93, ""],
    ]

A column is a claim's field, or `at.<dimension>` / `reference_at.<dimension>`; a row has one value per column. Every
expanded claim is then checked like a written one (an unknown column is an unknown key of that claim)."""

from __future__ import annotations

import pathlib
from typing import Any

from harness.config.data_files import display
from harness.model.errors import ConfigError

#: A cell that leaves its field out of that row's claim.
EMPTY = ""
_FIX = "docs/experiments.md, 'Claims as tables'"


def expand_claim_tables(data: dict[str, Any], path: pathlib.Path) -> None:
    """Replaces `claim_defaults` and `claim_tables` by the claims they stand for, after the written `claims`."""
    defaults = data.pop("claim_defaults", None) or {}
    tables = data.pop("claim_tables", None) or []
    claims = [{**defaults, **claim} for claim in data.get("claims", [])]
    for index, table in enumerate(tables):
        claims += _rows(table, defaults, f"{display(path)}: claim_tables[{index}]")
    for claim in claims:
        if "scenario" not in claim:
            claim["scenario"] = _generated_scenario(claim, data)
    if claims or "claims" in data:
        data["claims"] = claims


def _rows(table: dict[str, Any], defaults: dict[str, Any], where: str) -> list[dict[str, Any]]:
    columns, rows = table["columns"], table["rows"]
    shared = {k: v for k, v in table.items() if k not in ("columns", "rows")}
    twice = sorted({c.split(".")[0] for c in columns} & set(shared)) or sorted(
        {c for c in columns if columns.count(c) > 1}
    )
    if twice:
        raise ConfigError(
            f"{where}: {', '.join(twice)} is both a column and set for the table (or twice a column)", _FIX
        )
    claims = []
    for number, row in enumerate(rows):
        if len(row) != len(columns):
            raise ConfigError(
                f"{where}.rows[{number}] has {len(row)} values for {len(columns)} columns ({', '.join(columns)})",
                f'one value per column; "" leaves a field out for that row ({_FIX})',
            )
        claim = {**defaults, **shared}
        for column, value in zip(columns, row):
            if value == EMPTY:
                continue
            if "." in column:
                outer, inner = column.split(".", 1)
                place = dict(claim.get(outer) or {})
                place[inner] = value
                claim[outer] = place
            else:
                claim[column] = value
        claims.append(claim)
    return claims


def _generated_scenario(claim: dict[str, Any], data: dict[str, Any]) -> str:
    """'<the group title of its benchmark> on <its hardware's runtime>', or what it lacks for that."""
    bench = next((b for b in data.get("benchmarks", []) if b.get("id") == claim.get("benchmark")), None)
    group = next((g for g in data.get("groups", []) if bench and g.get("id") == bench.get("group")), None)
    hardware = (data.get("hardware") or {}).get(claim.get("hardware"), {})
    if group is None or not hardware:
        raise ConfigError(
            f"a claim of {claim.get('published_variant', '?')!r} has no scenario, and none can be made: it needs a "
            "benchmark of a group and a hardware key",
            f"give its table a scenario ({_FIX})",
        )
    return f"{group.get('title', group['id'])} on {hardware.get('runtime') or claim['hardware']}"
