"""The dataset manifest (datasets/manifest.json) and the hash check that guards every run."""

from __future__ import annotations

import hashlib
import json
import pathlib
from dataclasses import dataclass

from harness.defaults import DATASETS_DIR
from harness.errors import ConfigError, DatasetError, UnknownNameError

MANIFEST_FILE = "manifest.json"
SUPPORTED_SCHEMA = 1


@dataclass(frozen=True)
class Dataset:
    """One fixed input file and what is known about it."""

    name: str
    path: str
    bytes: int
    sha256: str
    model: str | None
    provenance: str
    licence: str


@dataclass(frozen=True)
class Manifest:
    """All datasets, read from a datasets folder."""

    directory: pathlib.Path
    datasets: dict[str, Dataset]

    def find(self, name: str) -> Dataset:
        """A dataset by name, or UnknownNameError listing valid names."""
        if name not in self.datasets:
            raise UnknownNameError("dataset", name, self.datasets, "in datasets/manifest.json")
        return self.datasets[name]

    def check(self, name: str) -> Dataset:
        """Verifies size and sha256 of one dataset's file; raises DatasetError saying which file and what to do."""
        dataset = self.find(name)
        path = self.directory / dataset.path
        if not path.is_file():
            raise DatasetError(f"dataset '{name}' is missing: {path}", "restore it with `git checkout -- datasets/`")
        data = path.read_bytes()
        digest = hashlib.sha256(data).hexdigest()
        if digest != dataset.sha256 or len(data) != dataset.bytes:
            raise DatasetError(
                f"dataset '{name}' ({path}) does not match the manifest: sha256 {digest[:12]}…, {len(data)} bytes; "
                f"expected {dataset.sha256[:12]}…, {dataset.bytes} bytes",
                "restore the file with `git checkout -- datasets/` (or regenerate it with its generator in datasets/generators/); "
                "if the change is intended, update datasets/manifest.json and say why in the commit",
            )
        return dataset


def load_manifest(directory: pathlib.Path = DATASETS_DIR) -> Manifest:
    """Reads datasets/manifest.json."""
    path = directory / MANIFEST_FILE
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError as e:
        raise ConfigError(f"no dataset manifest at {path}", "run from a clone of the repository") from e
    if data.get("schema_version") != SUPPORTED_SCHEMA:
        raise ConfigError(f"{path} has schema_version {data.get('schema_version')!r}; this harness reads {SUPPORTED_SCHEMA}", "update the harness to the commit that wrote the manifest")
    datasets = {d["name"]: Dataset(**d) for d in data["datasets"]}
    return Manifest(directory, datasets)
