"""The datasets folder a run's lab processes read. A lab finds a dataset in the manifest.json of the folder it is given
(mounted read-only in a container); the user's own documents are listed apart, in datasets/local/manifest.json
(harness/config/data/local_datasets.py). A run that measures one gets a folder of its own, <run>/datasets/: a manifest
of the datasets its cells read, the files hard-linked beside it (copied where a link cannot be made), so the labs read
the user's document exactly as they read the lab's own, and the run folder keeps what it measured."""

from __future__ import annotations

import dataclasses
import json
import os
import pathlib
import shutil

from harness.config.data.datasets import Dataset, load_manifest
from harness.config.data.local_models import LOCAL_MODELS
from harness.model.cells import Cell
from harness.model.errors import HarnessError

#: The folder under the run folder.
VIEW_DIR = "datasets"


def datasets_for_run(datasets_dir: pathlib.Path, cells: list[Cell], run_dir: pathlib.Path) -> pathlib.Path:
    """`datasets_dir` itself when no cell reads a document of the user's, else the run's own folder of the datasets
    its cells read."""
    manifest = load_manifest(datasets_dir)
    names = [n for c in cells for n in (c.dataset, c.shot.warmup_dataset if c.shot else None) if n]
    used = [manifest.find(name) for name in dict.fromkeys(names) if name in manifest.datasets]
    if not any(d.local for d in used):
        return datasets_dir
    view = run_dir / VIEW_DIR
    if (view / "manifest.json").is_file():  # a resumed run: the documents it measured, unless yours changed since
        kept = {e["name"]: e["sha256"] for e in json.loads((view / "manifest.json").read_text())["datasets"]}
        changed = [d.name for d in used if d.local and kept.get(d.name) != d.sha256]
        changed += [
            d.name for d in used if d.local and d.model and _model_text(view, d) != _model_text(datasets_dir, d)
        ]
        if changed:
            raise HarnessError(
                f"your document(s) {', '.join(changed)} (or the model of one) changed since run {run_dir.name} started "
                "measuring them",
                "start a new run (a run measures one version of a document and its model), or put the earlier one back",
            )
        return view
    for dataset in used:
        target = view / dataset.path
        target.parent.mkdir(parents=True, exist_ok=True)
        if target.exists():
            target.unlink()
        try:
            os.link(datasets_dir / dataset.path, target)
        except OSError:  # another file system, or links not allowed: a copy reads the same
            shutil.copyfile(datasets_dir / dataset.path, target)
        if dataset.local and dataset.model:  # the model its typed cells were built with, kept to compare on resume
            model = _model_path(view, dataset)
            model.parent.mkdir(parents=True, exist_ok=True)
            model.write_text(_model_text(datasets_dir, dataset))
    entries = [{k: v for k, v in dataclasses.asdict(d).items() if v is not None} for d in used]
    (view / "manifest.json").write_text(json.dumps({"schema_version": 1, "datasets": entries}, indent=2) + "\n")
    return view


def _model_path(folder: pathlib.Path, dataset: Dataset) -> pathlib.Path:
    """A local document's model file ("<name>.document" → local/models/<name>.toml) under a datasets folder."""
    return folder / LOCAL_MODELS / f"{(dataset.model or '').split('.')[0]}.toml"


def _model_text(folder: pathlib.Path, dataset: Dataset) -> str:
    path = _model_path(folder, dataset)
    return path.read_text(encoding="utf-8") if path.is_file() else ""
