"""`harness payload FILE`: the user's document becomes a dataset of its own and the payload template an experiment
on it, checked like any experiment file; profile `payload` then plans every lab's untyped parse and serialize of it."""

from __future__ import annotations

import argparse
import shutil

import pytest

from harness.cli import main
from harness.commands.payload import payload_command
from harness.config.data.local_datasets import local_entries
from harness.config.experiment.experiment_templates import EXPERIMENT_FILE, TYPED_EXPERIMENT_FILE
from harness.config.experiment.experiments import load_experiments
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ConfigError
from harness.planning.run_plan import RunOptions, resolve_plan

ORDERS = '{"orders": [{"id": 1, "lines": [{"sku": "a-1", "qty": 2}], "paid": true}]}'


def _args(tmp_path, text=ORDERS, **options):
    datasets = tmp_path / "datasets"
    datasets.mkdir(exist_ok=True)
    shutil.copy(DATASETS_DIR / "manifest.json", datasets / "manifest.json")
    document = tmp_path / "My Orders.json"
    document.write_text(text)
    given = {"model": None, "untyped": False, **options}
    return argparse.Namespace(
        file=document, name=None, results_dir=tmp_path / "results", datasets_dir=datasets, **given
    )


def test_a_document_is_planned_through_every_labs_untyped_parse_and_serialize(tmp_path, capsys):
    args = _args(tmp_path, untyped=True)
    datasets = args.datasets_dir
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

    assert not (folder / TYPED_EXPERIMENT_FILE).exists() and local_entries(datasets)[0]["model"] is None


def test_a_document_is_bound_to_the_model_inferred_from_it_written_out_for_review(tmp_path, capsys):
    args = _args(tmp_path)
    assert payload_command(args) == 0
    err = capsys.readouterr().err
    model = args.datasets_dir / "local" / "models" / "my-orders.toml"
    assert f"bound to the model inferred from it, {model}" in err
    text = model.read_text()
    assert 'document = "Document"' in text and 'orders = "List<Order>"' in text and 'qty = "int"' in text
    assert local_entries(args.datasets_dir)[0]["model"] == "my-orders.document"
    folder = tmp_path / "results" / "payloads" / "my-orders" / "experiments"
    plan = resolve_plan(
        RunOptions(
            profile="payload", experiments_dir=folder, datasets_dir=args.datasets_dir, build=False, check_tools=False
        )
    )
    typed = {(c.variant, c.operation) for c in plan.cells if c.experiment == "901"}
    assert ("stj-default", "deserialize") in typed and ("jil-default", "serialize") in typed
    assert ("jil-default", "deserialize") not in typed  # Jil reads nothing on .NET 9 and later

    model.write_text(text.replace('qty = "int"', 'qty = "long"'))  # the user's edit is kept on the next run
    assert payload_command(args) == 0
    assert "model kept from before" in capsys.readouterr().err and 'qty = "long"' in model.read_text()


def test_a_document_with_two_kinds_of_value_at_one_place_is_measured_untyped_and_says_why(tmp_path, capsys):
    args = _args(tmp_path, '[{"id": 1}, {"id": "two"}]')
    assert payload_command(args) == 0
    assert "no typed model: $[].id holds int and string values" in capsys.readouterr().err
    assert not (tmp_path / "results" / "payloads" / "my-orders" / "experiments" / TYPED_EXPERIMENT_FILE).exists()


def test_the_users_model_is_checked_and_must_name_the_document_root(tmp_path):
    schema = tmp_path / "orders.toml"
    schema.write_text('schema_version = 1\n[roots]\nall = "List<int>"\n')
    with pytest.raises(ConfigError, match="no root named 'document'"):
        payload_command(_args(tmp_path, model=schema))
    schema.write_text('schema_version = 1\n[roots]\ndocument = "Nope"\n')
    with pytest.raises(ConfigError, match="names Nope, which is neither"):
        payload_command(_args(tmp_path, model=schema))
    schema.write_text(
        'schema_version = 1\n[roots]\ndocument = "Dictionary<string, List<Line>>"\n[types.Line]\nsku = "string"\n'
    )
    assert payload_command(_args(tmp_path, model=schema)) == 0


@pytest.mark.parametrize(
    "text, message",
    [
        ('{"name": "a\\ud800"}', "the value at /name holds a lone surrogate U+D800"),
        ("[" * 100 + "]" * 100, "levels down) is nested deeper than 64 objects and arrays"),
    ],
)
def test_a_document_the_labs_cannot_read_alike_stops_the_command_with_an_error_and_a_hint(
    tmp_path, capsys, text, message
):
    args = _args(tmp_path, text=text, untyped=True)
    assert main(["payload", str(args.file), "--datasets-dir", str(args.datasets_dir), "--untyped"]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith(f"error: {args.file}: ") and message in err[0], err
    assert err[1].startswith("hint: ") and len(err) == 2
    assert not (args.datasets_dir / "local").exists()  # nothing copied
