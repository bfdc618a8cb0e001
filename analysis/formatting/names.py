"""Display names: a reader sees "System.Text.Json 10.0.12 · case-insensitive", not the benchmark id `ser-stj-ci`.

The library and its version are what the measured process reported (each row's `library` and `library_version`, from
the lab's registry); the short settings line, and a shorter name where the registry's library name is long, come from
each lab catalog's display table (lab/<lab>/catalog.toml, or the copy a run kept of it), the one home of those
words. Labels that would still be equal inside one chart get the dataset added, then the benchmark id, so no two bars
read alike. The ids stay in the CSV written beside every chart.
"""

from __future__ import annotations

import pathlib
import re
from collections.abc import Iterator
from contextlib import contextmanager
from functools import lru_cache

import pandas as pd

from harness.config.lab.lab_catalog import Display, load_lab_catalog
from harness.config.lab.variant_settings import base_of, describe
from harness.model.defaults import LABS_DIR
from harness.model.groups import is_aa_copy

SEPARATOR = " · "


#: The labs folder whose catalogs name the variants: lab/, or a run's kept copy while its report is written.
_source = [LABS_DIR]


@contextmanager
def display_names_from(labs_dir: pathlib.Path) -> Iterator[None]:
    """Within the block, display names come from the catalogs under `labs_dir` (a run's kept labs/: the words the run
    was made with), then from lab/ again."""
    _source.append(labs_dir)
    try:
        yield
    finally:
        _source.pop()


def _catalog_display() -> dict[tuple[str, str], Display]:
    return _display_of(_source[-1])


@lru_cache(maxsize=4)
def _display_of(labs_dir: pathlib.Path) -> dict[tuple[str, str], Display]:
    return {
        (lab, variant): d for lab, names in load_lab_catalog(labs_dir).items() for variant, d in names.display.items()
    }


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _display_for(row: pd.Series) -> Display | None:
    """The catalog's display entry of the row's variant (its base variant's, for a variant with settings)."""
    return _catalog_display().get((_text(row.get("lab")), base_of(_text(row.get("variant")))))


def library_name(row: pd.Series) -> str:
    """The library as a reader knows it: the catalog's shorter name, else the registry's, else the variant id."""
    display = _display_for(row)
    if display and display.name:
        return display.name
    return _text(row.get("library")) or _text(row.get("variant")) or _text(row.get("benchmark"))


def settings_line(row: pd.Series) -> str:
    """The variant's short settings line from the catalog ('' when it has none), then the settings the experiment
    gave it ("camelCase policy; indented=true")."""
    display = _display_for(row)
    line = display.settings if display else ""
    chosen = describe(_text(row.get("variant")))
    return "; ".join(part for part in (line, chosen) if part)


def _name(rows: pd.DataFrame, with_version: bool, separator: str) -> str:
    first = rows.iloc[0]
    versions = {v for v in rows.get("library_version", pd.Series(dtype=object)).map(_text) if v}
    library = library_name(first)
    if with_version and len(versions) == 1:
        library += f" {versions.pop()}"
    settings = settings_line(first)
    copy = " (A/A copy)" if is_aa_copy(_text(first.get("benchmark"))) else ""
    return library + (separator + settings if settings else "") + copy


def display_labels(
    cells: pd.DataFrame,
    key: str = "benchmark",
    with_version: bool = True,
    separator: str = SEPARATOR,
    extras: tuple[str, ...] = ("dataset",),
) -> dict[str, str]:
    """{key value: label} for every distinct `key` of a chart's rows (benchmark ids by default), unique within it;
    `separator` goes between the library and its settings (a newline makes two-line bar labels). Labels still equal
    get the `extras` columns added in turn, then the key itself."""
    if cells.empty:
        return {}
    groups = {k: rows for k, rows in cells.groupby(key, sort=False)}
    labels = {k: _name(rows, with_version, separator) for k, rows in groups.items()}
    for extra in (*extras, key):
        clashing = _clashes(labels)
        if not clashing:
            break
        for k in clashing:
            value = _text(groups[k].iloc[0].get(extra)) if extra in groups[k] else ""
            if value and value not in labels[k]:
                labels[k] += f" ({value})"
    return labels


def _clashes(labels: dict[str, str]) -> list[str]:
    seen: dict[str, list[str]] = {}
    for k, label in labels.items():
        seen.setdefault(label, []).append(k)
    return [k for ks in seen.values() if len(ks) > 1 for k in ks]


def runtime_order(runtime: str) -> tuple:
    """A sort key for runtime names: '10.0.12' after '9.0.20'; a name with text in it ('gcc-12.2.0-native') sorts by its
    numbers, then its text: every part is a (number, text) pair, so numbers and names never meet in one comparison."""
    return tuple((int(p), "") if p.isdigit() else (-1, p) for p in re.split(r"[.-]", runtime))
