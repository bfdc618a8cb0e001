"""A run that measures a document of the user's gives its labs a datasets folder of its own: the manifest of the
datasets its cells read, the files beside it, so each lab finds the document as it finds the lab's own."""

from __future__ import annotations

import json
import shutil

from harness.config.data.local_datasets import add_document
from harness.model.cells import Cell
from harness.model.defaults import DATASETS_DIR
from harness.session.processes.datasets_view import datasets_for_run


def _cell(dataset: str) -> Cell:
    return Cell("900", "b", "g", "b", "dotnet", "stj-jsondocument", dataset, "deserialize", "native")


def test_a_run_of_the_labs_datasets_reads_them_in_place_and_one_of_yours_gets_its_own_folder(tmp_path):
    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets / "manifest.json")
    (datasets / "writeups").mkdir()
    shutil.copy(DATASETS_DIR / "writeups" / "myclass-camel.json", datasets / "writeups")
    assert datasets_for_run(datasets, [_cell("myclass-camel")], tmp_path / "run") == datasets
    document = tmp_path / "orders.json"
    document.write_text('{"orders": [1, 2]}')
    add_document(datasets, document, "orders", set())
    view = datasets_for_run(datasets, [_cell("orders"), _cell("myclass-camel")], tmp_path / "run")
    assert view == tmp_path / "run" / "datasets"
    manifest = json.loads((view / "manifest.json").read_text())
    assert [d["name"] for d in manifest["datasets"]] == ["orders", "myclass-camel"]
    assert (view / "local" / "orders.json").read_text() == '{"orders": [1, 2]}'
    assert (view / "writeups" / "myclass-camel.json").read_bytes() == (
        datasets / "writeups" / "myclass-camel.json"
    ).read_bytes()


def test_a_resumed_run_keeps_its_folder_and_is_refused_once_your_document_changed(tmp_path):
    import pytest

    from harness.model.errors import HarnessError

    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets / "manifest.json")
    document = tmp_path / "orders.json"
    document.write_text("[1]")
    add_document(datasets, document, "orders", set())
    run = tmp_path / "run"
    view = datasets_for_run(datasets, [_cell("orders")], run)
    assert datasets_for_run(datasets, [_cell("orders")], run) == view  # resumed: the same folder
    document.write_text("[2]")
    add_document(datasets, document, "orders", set())
    with pytest.raises(HarnessError, match="changed since run run started measuring them"):
        datasets_for_run(datasets, [_cell("orders")], run)
    assert (view / "local" / "orders.json").read_text() == "[1]"  # what the run measured


def test_a_resumed_run_is_refused_once_the_model_of_your_document_changed(tmp_path):
    import pytest

    from harness.config.data.local_datasets import set_document_model
    from harness.config.data.local_models import keep_model, local_model_path
    from harness.model.errors import HarnessError

    datasets = tmp_path / "datasets"
    datasets.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", datasets / "manifest.json")
    document = tmp_path / "orders.json"
    document.write_text('{"orders": [1, 2]}')
    add_document(datasets, document, "orders", set())
    model = 'schema_version = 1\n[roots]\ndocument = "Doc"\n[types.Doc]\norders = "List<int>"\n'
    keep_model(datasets, "orders", model)
    set_document_model(datasets, "orders", True)
    view = datasets_for_run(datasets, [_cell("orders")], tmp_path / "run")
    assert (view / "local" / "models" / "orders.toml").read_text() == model  # what its typed cells were built with
    assert datasets_for_run(datasets, [_cell("orders")], tmp_path / "run") == view  # unchanged: resumes
    local_model_path(datasets, "orders").write_text(model.replace("List<int>", "List<long>"))
    with pytest.raises(HarnessError, match="or the model of one"):
        datasets_for_run(datasets, [_cell("orders")], tmp_path / "run")
