"""What a model file says of the publisher's code, end to end on the real .NET lab (a short job, the smoke profile's;
numbers not checked): `[construction]` (a positional record read through its constructor, init-only setters),
`[converters]` (System.Text.Json's and Newtonsoft.Json's string-enum converters, each honoured by its own library and
ignored by the other) and `[sourcegen]` (a source-generation context with snake_case names and indented output), each
against a library that honours it, and the lab's own read-back of what it built (`list`: construction and context
options from the compiled types). The datasets folder is the test's own copy."""

import argparse
import json
import shutil
import subprocess

import pytest

from harness.commands.payload import payload_command
from harness.model.defaults import DATASETS_DIR, LABS_DIR
from tests.conftest import REPO
from tests.e2e.real_run import run_real

pytestmark = pytest.mark.skipif(shutil.which("dotnet") is None, reason="needs the .NET SDK")

MODELS = REPO / "tests" / "fixtures" / "models"
PEOPLE = 12
# Mood is a name and Shift a number in the document: System.Text.Json reads the name only through Mood's converter,
# and every library reads Shift's number. Written back, System.Text.Json writes Mood's name ("Busy", 5 bytes more than
# 1) and Shift's number, Newtonsoft.Json the reverse ("Overtime", 9 bytes more than 1): 4 bytes more a person.
PEOPLE_DOCUMENT = [
    {
        "FirstName": f"person {n}",
        "Age": 20 + n,
        "Home": {"Street": f"street {n}", "Number": n},
        "Mood": "Busy",
        "Shift": 1,
    }
    for n in range(PEOPLE)
]
POINTS_DOCUMENT = [{"X": n, "Y": -n} for n in range(10)]
ORDERS_DOCUMENT = [{"order_id": n, "customer_name": f"customer {n}", "total": n + 0.5} for n in range(10)]

EXPERIMENT = """schema_version = 1
id = "902"
title = "the publisher's code as data"
writeup = "none: the lab's test"
lab = "dotnet"
{groups}
{benchmarks}
"""


def _register(tmp_path, datasets, name, document, model):
    path = tmp_path / f"{name}.json"
    path.write_text(json.dumps(document))
    args = argparse.Namespace(
        file=path, name=name, results_dir=tmp_path / "results", datasets_dir=datasets, model=model, untyped=False
    )
    assert payload_command(args) == 0


def _experiment(cells: list[tuple[str, str, str, str]]) -> str:
    groups = "".join(
        f'[[groups]]\nid = "{g}"\ntitle = "{g}"\nbaseline = "{next(c[0] for c in cells if c[1] == g)}"\n'
        for g in dict.fromkeys(c[1] for c in cells)
    )
    benchmarks = "".join(
        f'[[benchmarks]]\nid = "{cell}"\ngroup = "{group}"\nvariant = "{variant}"\ndataset = "{dataset}"\n'
        f'operation = "{cell.split("-")[0]}"\n'
        for cell, group, variant, dataset in cells
    )
    return EXPERIMENT.format(groups=groups, benchmarks=benchmarks)


def test_a_model_says_what_the_publishers_code_said(tmp_path):
    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets)
    shutil.copytree(DATASETS_DIR / "models", datasets / "models")
    _register(tmp_path, datasets, "people", PEOPLE_DOCUMENT, MODELS / "publisher-code.toml")
    _register(tmp_path, datasets, "orders", ORDERS_DOCUMENT, MODELS / "snake-context.toml")
    _register(tmp_path, datasets, "points", POINTS_DOCUMENT, MODELS / "writer-context.toml")
    cells = [
        ("deserialize-stj", "people-read", "stj-default", "people"),
        ("deserialize-newtonsoft", "people-read", "newtonsoft-default", "people"),
        ("deserialize-stj-sourcegen", "people-read", "stj-sourcegen", "people"),
        ("deserialize-jsonsrcgen", "people-read", "jsonsrcgen", "people"),
        ("serialize-stj", "people-write", "stj-default", "people"),
        ("serialize-newtonsoft", "people-write", "newtonsoft-default", "people"),
        ("deserialize-stj-sourcegen-snake", "orders-read", "stj-sourcegen", "orders"),
        ("deserialize-stj-default-orders", "orders-read", "stj-default", "orders"),
        ("serialize-stj-sourcegen-snake", "orders-write", "stj-sourcegen-utf8", "orders"),
        ("serialize-stj-sourcegen-points", "points-write", "stj-sourcegen", "points"),
        ("deserialize-stj-sourcegen-points", "points-read", "stj-sourcegen", "points"),
    ]
    folder = tmp_path / "drafts"
    folder.mkdir()
    (folder / "902-publisher-code.toml").write_text(_experiment(cells))

    summary, _ = run_real(tmp_path, folder, "902", tuple(c[0] for c in cells), ("10.0.12",), datasets_dir=datasets)
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    by_cell: dict[str, dict] = {}  # each cell's first row that was verified or failed (a disturbed one may be neither)
    for row in rows:
        if row.get("verification_status") is not None or row["status"] == "failed":
            by_cell.setdefault(row["benchmark"].split("~")[0], row)

    def passed(cell: str) -> dict:
        row = by_cell[cell]
        assert row["verification_status"] == "passed", (cell, row.get("verification_error") or row.get("error"))
        return row

    # positional and init, read through the constructor and the initializer; Mood's name through STJ's converter
    for cell in ("deserialize-stj", "deserialize-newtonsoft", "deserialize-stj-sourcegen"):
        passed(cell)
    # each library honours its own converter and not the other's
    stj, newtonsoft = passed("serialize-stj"), passed("serialize-newtonsoft")
    assert newtonsoft["payload_bytes"] - stj["payload_bytes"] == 4 * PEOPLE, (
        stj["payload_bytes"],
        newtonsoft["payload_bytes"],
    )
    # JsonSrcGen sets properties: a positional record has no twin, and its cell says why
    void = by_cell["deserialize-jsonsrcgen"]
    reason = str(void.get("verification_error") or void.get("error"))
    assert "failed" in (void["status"], void["verification_status"]) and "positional record" in reason, reason
    # the context's snake_case names: its variant reads the document, the reflection default binds nothing
    passed("deserialize-stj-sourcegen-snake")
    assert by_cell["deserialize-stj-default-orders"]["verification_status"] == "failed"
    passed("serialize-stj-sourcegen-snake")
    # a serialization-only context writes through its fast path and has no metadata to read with
    passed("serialize-stj-sourcegen-points")
    unread = by_cell["deserialize-stj-sourcegen-points"]
    assert "failed" in (unread["status"], unread["verification_status"]), unread

    listing = _lab_listing()
    models = {m["name"]: m for m in listing["models"]}
    assert models["people.document"]["construction"] == {"Person": "positional", "Address": "init"}
    assert models["people.document"]["source_gen"] == ""
    assert models["orders.document"]["source_gen"] == "naming=snake_case_lower, indented=true"


def _lab_listing() -> dict:
    """The built lab's `list` (the run above built it for 10.0.12 with this test's models)."""
    binary = LABS_DIR / "dotnet" / "build" / "10.0.12" / "JsonLab"  # lab.toml: build_output, command
    return json.loads(subprocess.run([str(binary), "list"], capture_output=True, text=True, check=True).stdout)
