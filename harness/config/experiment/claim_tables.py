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

from harness.config.data_files import TomlTable, display, toml_array, toml_table
from harness.model.errors import ConfigError

#: A cell that leaves its field out of that row's claim.
EMPTY = ""
_FIX = "docs/experiments.md, 'Claims as tables'"


def expand_claim_tables(data: TomlTable, path: pathlib.Path) -> None:
    """Replaces `claim_defaults` and `claim_tables` by the claims they stand for, after the written `claims`. `data`
    has passed the schema: the defaults are a table, each claim and claim table a table, columns text, rows arrays."""
    defaults = toml_table(data.pop("claim_defaults", None))
    tables = toml_array(data.pop("claim_tables", None))
    claims = [{**defaults, **toml_table(claim)} for claim in toml_array(data.get("claims"))]
    for index, table in enumerate(tables):
        claims += _rows(toml_table(table), defaults, f"{display(path)}: claim_tables[{index}]")
    for claim in claims:
        if "scenario" not in claim:
            claim["scenario"] = _generated_scenario(claim, data)
    if claims or "claims" in data:
        data["claims"] = list(claims)


def _rows(table: TomlTable, defaults: TomlTable, where: str) -> list[TomlTable]:
    columns = [column for column in toml_array(table["columns"]) if isinstance(column, str)]
    rows = [toml_array(row) for row in toml_array(table["rows"])]
    shared = {k: v for k, v in table.items() if k not in ("columns", "rows")}
    twice = sorted({c.split(".")[0] for c in columns} & set(shared)) or sorted(
        {c for c in columns if columns.count(c) > 1}
    )
    if twice:
        raise ConfigError(
            f"{where}: {', '.join(twice)} is both a column and set for the table (or twice a column)", _FIX
        )
    claims: list[TomlTable] = []
    for number, row in enumerate(rows):
        if len(row) != len(columns):
            raise ConfigError(
                f"{where}.rows[{number}] has {len(row)} values for {len(columns)} columns ({', '.join(columns)})",
                f'one value per column; "" leaves a field out for that row ({_FIX})',
            )
        claim: TomlTable = {**defaults, **shared}
        for column, value in zip(columns, row):
            if value == EMPTY:
                continue
            if "." in column:
                outer, inner = column.split(".", 1)
                place = dict(toml_table(claim.get(outer)))
                place[inner] = value
                claim[outer] = place
            else:
                claim[column] = value
        claims.append(claim)
    return claims


def _generated_scenario(claim: TomlTable, data: TomlTable) -> str:
    """'<the group title of its benchmark> on <its hardware's runtime>', or what it lacks for that."""
    benchmarks = map(toml_table, toml_array(data.get("benchmarks")))
    groups = map(toml_table, toml_array(data.get("groups")))
    bench = next((b for b in benchmarks if b.get("id") == claim.get("benchmark")), None)
    group = next((g for g in groups if bench and g.get("id") == bench.get("group")), None)
    key = claim.get("hardware")
    hardware = toml_table(toml_table(data.get("hardware")).get(key) if isinstance(key, str) else None)
    if group is None or not hardware:
        raise ConfigError(
            f"a claim of {claim.get('published_variant', '?')!r} has no scenario, and none can be made: it needs a "
            "benchmark of a group and a hardware key",
            f"give its table a scenario ({_FIX})",
        )
    return f"{group.get('title', group['id'])} on {hardware.get('runtime') or claim['hardware']}"
