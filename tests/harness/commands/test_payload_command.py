"""`harness payload FILE`: the user's document becomes a dataset of its own and the payload template an experiment
on it, checked like any experiment file; profile `payload` then plans every lab's untyped parse and serialize of it."""

from __future__ import annotations

import argparse
import shutil

from harness.commands.payload import EXPERIMENT_FILE, payload_command
from harness.config.experiments import load_experiments
from harness.model.defaults import DATASETS_DIR
from harness.planning.run_plan import RunOptions, resolve_plan


def test_a_document_is_planned_through_every_labs_untyped_parse_and_serialize(tmp_path, capsys):
    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets / "manifest.json")
    document = tmp_path / "My Orders.json"
    document.write_text('{"orders": [{"id": 1, "lines": [{"sku": "a-1", "qty": 2}], "paid": true}]}')
    args = argparse.Namespace(file=document, name=None, results_dir=tmp_path / "results", datasets_dir=datasets)
    assert payload_command(args) == 0
    out, err = capsys.readouterr()
    folder = tmp_path / "results" / "payloads" / "my-orders" / "experiments"
    assert out.strip() == str(folder) and "your document my-orders: 74 bytes, 4 values" in err  # id, sku, qty, paid
    experiment = load_experiments(folder)["900"]
    assert "{dataset}" not in (folder / EXPERIMENT_FILE).read_text()
    assert {b.dataset for b in experiment.benchmarks.values()} == {"my-orders"}
    plan = resolve_plan(
        RunOptions(profile="payload", experiments_dir=folder, datasets_dir=datasets, build=False, check_tools=False)
    )
    assert {c.lab for c in plan.cells} == {"reference-node", "dotnet", "cpp"}
    assert {c.operation for c in plan.cells} == {"deserialize", "serialize"}
    assert {c.dataset for c in plan.cells} == {"my-orders"}
