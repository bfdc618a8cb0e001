"""`just payload FILE` end to end on the real .NET lab, with a small generated document: the document checked and kept,
its model inferred and built into the lab, every typed cell verified field by field against the document before it is
timed, then the report with its cross-language throughput chart. A short job (the smoke profile's), numbers not
checked. The datasets folder is the test's own copy, so the user's datasets/local/ is never touched."""

import argparse
import json
import random
import shutil
import subprocess
import sys

import pytest

from harness.commands.payload import payload_command
from harness.model.defaults import DATASETS_DIR
from tests.conftest import REPO
from tests.e2e.real_run import run_real

pytestmark = pytest.mark.skipif(shutil.which("dotnet") is None, reason="needs the .NET SDK")


def _orders(count: int, seed: int) -> list[dict]:
    draw = random.Random(seed)
    return [
        {
            "id": 10_000_000_000 + n,
            "customer": {"name": f"customer {draw.randrange(1000)}", "vip": draw.random() < 0.2},
            "lines": [
                {
                    "sku": f"sku-{draw.randrange(10**6)}",
                    "qty": draw.randrange(1, 9),
                    "price": round(draw.random() * 100, 2),
                }
                for _ in range(draw.randrange(1, 5))
            ],
            "note": None if n % 3 else "leave at the door \u2713",
        }
        for n in range(count)
    ]


def test_a_users_document_is_measured_typed_from_its_inferred_model_to_the_report(tmp_path, capsys):
    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets)
    shutil.copytree(DATASETS_DIR / "models", datasets / "models")
    document = tmp_path / "orders.json"
    document.write_text(json.dumps(_orders(40, seed=7)))
    args = argparse.Namespace(
        file=document, name=None, results_dir=tmp_path / "results", datasets_dir=datasets, model=None, untyped=False
    )
    assert payload_command(args) == 0
    folder = tmp_path / "results" / "payloads" / "orders" / "experiments"
    assert "bound to the model inferred from it" in capsys.readouterr().err
    assert 'qty = "int"' in (datasets / "local" / "models" / "orders.toml").read_text()

    benchmarks = ("typed-deserialize-stj", "typed-deserialize-newtonsoft", "typed-serialize-stj", "typed-serialize-jil")
    benchmarks += ("typed-deserialize-jsonsrcgen",)  # through the JsonSrcGen twin of the inferred model
    summary, rows = run_real(tmp_path, folder, "901", benchmarks, ("10.0.12",), datasets_dir=datasets)
    assert {r["benchmark"].split("~")[0] for r in rows} == set(benchmarks)  # ~aa: the smoke job's A/A copies
    for row in rows:
        assert row["status"] == "ok" and row["dataset"] == "orders", row.get("error")
        assert row["verification_status"] == "passed" and row["model_type"] == "List<Document>"
    report = subprocess.run(
        [sys.executable, "-m", "analysis", "report", str(summary.directory)], cwd=REPO, capture_output=True, text=True
    )
    assert report.returncode == 0, report.stderr
    text = (summary.directory / "report" / "report.md").read_text()
    assert "orders" in text and "typed-deserialize" in text
    charts = summary.directory / "report" / "charts"
    assert any(charts.glob("*throughput*.svg")) or any(charts.glob("*cross*.svg")), sorted(
        p.name for p in charts.iterdir()
    )
