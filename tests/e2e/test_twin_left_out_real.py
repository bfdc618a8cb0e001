"""A user's model whose JsonSrcGen twins do not compile beside the lab's own jsonsrcgen-kinds, end to end on the real
.NET lab: the probe leaves its twins out, the lab builds, the document's System.Text.Json and Newtonsoft.Json cells are
verified and measured, and its JsonSrcGen cell is void with the compiler's error and the probe's log (issue: one
library's generator fed two model spaces took down every write-up on every runtime). A short job (the smoke profile's),
numbers not checked. The datasets folder is the test's own copy."""

import argparse
import json
import shutil

import pytest

from harness.commands.payload import payload_command
from harness.model.defaults import DATASETS_DIR
from tests.conftest import REPO
from tests.e2e.real_run import run_real

pytestmark = pytest.mark.skipif(shutil.which("dotnet") is None, reason="needs the .NET SDK")

CLASH = REPO / "tests" / "fixtures" / "models" / "jsonsrcgen-clash.toml"


def _people(count: int) -> list[dict]:
    return [
        {
            "Name": f"person {n}",
            "Age": 20 + n,
            "Address": {"Street": f"street {n}", "Number": n},
            "Scores": [1.5, 2.25],
            "Ids": [n, n + 1],
            "Words": ["a", "b"],
            "Nums": [1, 2, 3],
            "Flags": [True, False],
            "Maybe": [7],
            "Addresses": [{"Street": "other", "Number": 1}],
            "When": "2024-01-02T03:04:05",
        }
        for n in range(count)
    ]


def test_a_model_whose_twins_clash_is_left_out_and_everything_else_is_measured(tmp_path, capsys):
    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets)
    shutil.copytree(DATASETS_DIR / "models", datasets / "models")
    model = tmp_path / "people-model.toml"
    text = CLASH.read_text()
    model.write_text(text[: text.index("[roots]")] + '[roots]\ndocument = "Person[]"\n' + text[text.index("[types.") :])
    document = tmp_path / "people.json"
    document.write_text(json.dumps(_people(20)))
    args = argparse.Namespace(
        file=document, name=None, results_dir=tmp_path / "results", datasets_dir=datasets, model=model, untyped=False
    )
    assert payload_command(args) == 0
    folder = tmp_path / "results" / "payloads" / "people" / "experiments"

    benchmarks = ("typed-deserialize-stj", "typed-serialize-newtonsoft", "typed-deserialize-jsonsrcgen")
    _, rows = run_real(tmp_path, folder, "901", benchmarks, ("10.0.12",), datasets_dir=datasets)
    by_benchmark = {r["benchmark"].split("~")[0]: r for r in rows}
    for measured in ("typed-deserialize-stj", "typed-serialize-newtonsoft"):
        row = by_benchmark[measured]
        assert row["status"] == "ok" and row["verification_status"] == "passed", row.get("error")
    void = by_benchmark.get("typed-deserialize-jsonsrcgen")
    if void is None:  # a cell whose check failed has no undisturbed measured row: read it from the run's rows
        all_rows = [json.loads(line) for line in next((tmp_path / "results").glob("*/results.jsonl")).open()]
        void = next(r for r in all_rows if r["benchmark"].startswith("typed-deserialize-jsonsrcgen"))
    reason = str(void.get("verification_error") or void.get("error"))
    assert void["verification_status"] == "failed" or void["status"] == "failed"
    assert "build failed" in reason and "beside jsonsrcgen-kinds" in reason and "CS0128" in reason, reason
