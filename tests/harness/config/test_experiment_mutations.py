"""Property test: a valid experiment file, mutated (a key deleted, a value's type changed, a reference renamed, an entry
duplicated), is either accepted as written or refused with an `error:` line and exit 2 by `harness check`: never a
traceback, never accepted with something silently replaced (a dropped duplicate, a runtime falling back to the
default)."""

from __future__ import annotations

import contextlib
import copy
import io
import json
import pathlib
import tempfile
from typing import Any

import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.cli import main
from harness.config.experiment.experiments import load_experiments
from harness.config.lab.lab_catalog import load_lab_catalog
from harness.config.lab.labs import load_labs
from harness.config.lab.variant_settings import base_of
from tests.conftest import FIXTURES, REPO

SOURCES = [FIXTURES / "broken-experiments" / "000-valid-base.toml", next(REPO.glob("experiments/001-*.toml"))]
DOCUMENTS = [tomllib.loads(p.read_text()) for p in SOURCES]
LABS = load_labs()
CATALOG = load_lab_catalog()

#: Values a changed type takes: one of each TOML kind.
OTHER_VALUES = ["text", 7, -3, 0, 2.5, -0.5, 0.0, True, [], ["a", "b"], [1, 2], {"k": "v"}]


# -- a small TOML writer for the documents experiments are (tables, arrays of tables, inline values) -----------------


def _inline(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    return "{" + ", ".join(f"{json.dumps(str(k))} = {_inline(v)}" for k, v in value.items()) + "}"


def dumps(document: dict[str, Any]) -> str:
    """TOML text that tomllib reads back as `document`."""
    plain = [
        f"{json.dumps(k)} = {_inline(v)}"
        for k, v in document.items()
        if not (isinstance(v, dict) or (isinstance(v, list) and v and all(isinstance(e, dict) for e in v)))
    ]
    out = plain[:]
    for key, value in document.items():
        if isinstance(value, dict):
            if value and all(isinstance(v, dict) for v in value.values()):
                for sub, table in value.items():
                    out += [
                        "",
                        f"[{json.dumps(key)}.{json.dumps(sub)}]",
                        *(f"{json.dumps(k)} = {_inline(v)}" for k, v in table.items()),
                    ]
            else:
                out += ["", f"[{json.dumps(key)}]", *(f"{json.dumps(k)} = {_inline(v)}" for k, v in value.items())]
        elif isinstance(value, list) and value and all(isinstance(e, dict) for e in value):
            for entry in value:
                out += ["", f"[[{json.dumps(key)}]]", *(f"{json.dumps(k)} = {_inline(v)}" for k, v in entry.items())]
    return "\n".join(out) + "\n"


def test_the_writer_round_trips_the_sources():
    for document in DOCUMENTS:
        assert tomllib.loads(dumps(document)) == document


# -- mutations ---------------------------------------------------------------------------------------------------------


def _paths(node: Any, prefix: tuple = ()) -> list[tuple]:
    """Every path to a value in the document."""
    out = [prefix] if prefix else []
    if isinstance(node, dict):
        for key, value in node.items():
            out += _paths(value, (*prefix, key))
    elif isinstance(node, list):
        for index, value in enumerate(node):
            out += _paths(value, (*prefix, index))
    return out


def _parent(document: Any, path: tuple) -> tuple[Any, Any]:
    node = document
    for part in path[:-1]:
        node = node[part]
    return node, path[-1]


@st.composite
def mutated(draw) -> tuple[dict, str]:
    document = copy.deepcopy(draw(st.sampled_from(DOCUMENTS)))
    kind = draw(st.sampled_from(["delete", "retype", "rename", "duplicate"]))
    if kind == "duplicate":
        key = draw(st.sampled_from([k for k in ("groups", "benchmarks", "claims") if document.get(k)]))
        entries = document[key]
        entries.insert(draw(st.integers(0, len(entries))), copy.deepcopy(draw(st.sampled_from(entries))))
        return document, f"duplicate an entry of {key}"
    paths = _paths(document)
    if kind == "rename":
        paths = [p for p in paths if isinstance(_parent(document, p)[0][p[-1]], str)]
    path = draw(st.sampled_from(paths))
    parent, last = _parent(document, path)
    if kind == "delete":
        del parent[last]
    elif kind == "retype":
        parent[last] = draw(st.sampled_from([v for v in OTHER_VALUES if v.__class__ is not parent[last].__class__]))
    else:
        parent[last] = parent[last] + draw(st.sampled_from(["x", "-2", " "]))
    return document, f"{kind} {'.'.join(map(str, path))}"


def _check(document: dict, folder: pathlib.Path) -> tuple[int, str]:
    """`harness check` of the document as the only experiment of `folder`: (exit status, standard error)."""
    (folder / "900-mutated.toml").write_text(dumps(document))
    err = io.StringIO()
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(io.StringIO()):
        status = main(["check", "--experiments-dir", str(folder)])
    return status, err.getvalue()


def _as_written(document: dict, folder: pathlib.Path) -> None:
    """An accepted file is read as written: every entry kept, every name one the lab has, no runtime substituted."""
    (exp,) = load_experiments(folder).values()
    assert len(exp.groups) == len(document["groups"]) and len(exp.benchmarks) == len(document["benchmarks"])
    assert len(exp.claims) == len(document.get("claims", []))
    for entry in document["benchmarks"]:
        bench = exp.benchmarks[entry["id"]]
        assert (bench.variant, bench.dataset, bench.lab) == (
            entry["variant"],
            entry["dataset"],
            entry.get("lab", document["lab"]),
        )
        assert base_of(bench.variant) in CATALOG[bench.lab].variants
    for key, hardware in exp.hardware.items():
        labs = {exp.benchmarks[c.benchmark].lab for c in exp.claims if c.hardware == key and c.benchmark} or {
            b.lab for b in exp.benchmarks.values()
        }
        for lab in labs:
            assert not hardware.lab_runtimes or hardware.stand_in(LABS[lab].runtime_names, "none") != "none"
        assert set(hardware.lab_runtimes) <= {r for lab in labs for r in LABS[lab].runtime_names}
    for entry, claim in zip(document.get("claims", []), exp.claims):
        assert (claim.mean_ns, claim.ratio, claim.allocated_bytes) == (
            entry.get("mean_ns"),
            entry.get("ratio"),
            entry.get("allocated_bytes"),
        )


@settings(
    max_examples=120, deadline=None, derandomize=True, database=None, suppress_health_check=[HealthCheck.too_slow]
)
@given(mutated())
def test_a_mutated_experiment_is_accepted_as_written_or_refused_with_an_error_line(case):
    document, mutation = case
    with tempfile.TemporaryDirectory(prefix="mutated-") as folder:
        status, err = _check(document, pathlib.Path(folder))
        assert "Traceback" not in err, mutation
        assert status in (0, 2), (mutation, status, err)
        if status == 2:
            lines = err.splitlines()
            assert lines[0].startswith("error: ") and lines[1].startswith("hint: "), (mutation, err)
        else:
            _as_written(document, pathlib.Path(folder))
