"""Every column (and record key) a module of analysis/ names by its text is declared in one home: a record's field
(ResultRow, Verdict, the run folder's records), a TypedDict's key, a table's COLUMNS, or a derived column of
analysis/compute/columns.py. A misspelt column then fails here instead of reading as missing in a report."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import pathlib
import pkgutil
import re
import typing

import analysis
import harness
from analysis.compute.columns import DERIVED

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: A subscript by an identifier-like text names a column or a key; a label with spaces or a dotted setting does not.
NAME = re.compile(r"[a-z_][a-z0-9_]*\Z")


def _declared_names() -> set[str]:
    names = set(DERIVED)
    for package in (harness, analysis):
        for module_info in pkgutil.walk_packages(package.__path__, f"{package.__name__}."):
            if module_info.name.endswith("__main__"):
                continue
            module = importlib.import_module(module_info.name)
            for value in vars(module).values():
                if isinstance(value, type) and (dataclasses.is_dataclass(value) or typing.is_typeddict(value)):
                    for cls in value.__mro__:
                        names |= set(getattr(cls, "__annotations__", {}))
                elif isinstance(value, (list, tuple, dict)) and value and all(isinstance(v, str) for v in value):
                    names |= set(value)  # a table's COLUMNS, a key list
    return names


def _named_columns() -> dict[str, list[str]]:
    named: dict[str, list[str]] = {}
    for path in sorted((ROOT / "analysis").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant):
                text = node.slice.value
                if isinstance(text, str) and NAME.match(text):
                    named.setdefault(text, []).append(f"{path.relative_to(ROOT)}:{node.lineno}")
    return named


def test_every_column_the_analysis_names_is_declared_in_one_home():
    declared = _declared_names()
    undeclared = {name: places[:3] for name, places in _named_columns().items() if name not in declared}
    assert not undeclared, (
        "columns named but declared nowhere (add a derived one to analysis/compute/columns.py, or fix the name): "
        f"{undeclared}"
    )


def test_the_check_finds_a_misspelt_column():
    assert "ratio_rel_ci99" in _declared_names()
    assert "ratio_rel_c99" not in _declared_names()
