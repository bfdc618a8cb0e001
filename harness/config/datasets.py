"""The dataset manifest (datasets/manifest.json) and the hash check that guards every run."""

from __future__ import annotations

import hashlib
import json
import pathlib
import subprocess
from dataclasses import dataclass

from harness.tools.canonical import RULE, canonical_digest
from harness.config.defaults import DATASETS_DIR
from harness.model.errors import ConfigError, DatasetError, UnknownNameError

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
    layout: str = "document"  # or "lines": JSON Lines, one document of the model per line
    generator: dict | None = None  # {"lab", "name", "count", "seed"[, "item"]}: the lab verb that regenerates the file
    canonical: dict | None = (
        None  # {"rule", "sha256", "leaves"} of a single-document dataset (harness/tools/canonical.py)
    )


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
                "restore the file with `git checkout -- datasets/` (or regenerate it with its generator in "
                "datasets/generators/); "
                "if the change is intended, update datasets/manifest.json and say why in the commit",
            )
        return dataset

    def check_canonical(self, name: str) -> None:
        """The manifest's canonical digest of a dataset must be the one computed now (a pure function of its bytes and
        the rule, so runs rely on the sha256 alone; this guards edits of the rule or the manifest)."""
        dataset = self.find(name)
        if (
            dataset.canonical is not None
            and canonical_digest((self.directory / dataset.path).read_bytes()) != dataset.canonical
        ):
            raise DatasetError(
                f"dataset '{name}': its canonical digest ({RULE}) differs from the manifest's",
                "the canonical rule changed: run `python3 -m harness canonical-digests` and say why in the commit",
            )


def canonical_digests(manifest: Manifest) -> dict[str, dict]:
    """The canonical digest of every single-document dataset (the ones a parse result can be checked against)."""
    return {
        d.name: canonical_digest((manifest.directory / d.path).read_bytes())
        for d in manifest.datasets.values()
        if d.layout == "document"
    }


def write_canonical_digests(manifest: Manifest) -> int:
    """Writes each single-document dataset's canonical digest into manifest.json; returns how many changed."""
    path = manifest.directory / MANIFEST_FILE
    data = json.loads(path.read_text())
    digests = canonical_digests(manifest)
    changed = 0
    for entry in data["datasets"]:
        if entry["name"] in digests and entry.get("canonical") != digests[entry["name"]]:
            entry["canonical"] = digests[entry["name"]]
            changed += 1
    path.write_text(json.dumps(data, indent=2, ensure_ascii=False) + "\n")
    return changed


def load_manifest(directory: pathlib.Path = DATASETS_DIR) -> Manifest:
    """Reads datasets/manifest.json."""
    path = directory / MANIFEST_FILE
    try:
        data = json.loads(path.read_text())
    except FileNotFoundError as e:
        raise ConfigError(f"no dataset manifest at {path}", "run from a clone of the repository") from e
    except json.JSONDecodeError as e:
        raise ConfigError(f"{path} is not valid JSON: {e}", "fix the line it names") from e
    if data.get("schema_version") != SUPPORTED_SCHEMA:
        raise ConfigError(
            f"{path} has schema_version {data.get('schema_version')!r}; this harness reads {SUPPORTED_SCHEMA}",
            "update the harness to the commit that wrote the manifest",
        )
    try:
        datasets = {d["name"]: Dataset(**d) for d in data["datasets"]}
    except (KeyError, TypeError) as e:
        raise ConfigError(
            f"{path}: a dataset entry is malformed: {e!r}",
            "each entry has name, path, bytes, sha256, model, provenance, licence (docs/extending.md, 'A dataset')",
        ) from e
    return Manifest(directory, datasets)


def regenerate(manifest: Manifest, labs: dict, run=subprocess.run) -> list[Dataset]:
    """Rewrites every generated dataset with its lab's `generate` verb, then checks it against the manifest.

    The generators are deterministic (fixed seeds, pinned Bogus): a changed hash means a generator or a library
    version changed, and the DatasetError says which file."""
    done = []
    for dataset in manifest.datasets.values():
        spec = dataset.generator
        if spec is None:
            continue
        lab = labs[spec["lab"]].for_runtime()  # the lab's default runtime (its build must exist: just build)
        lab.check_requirements()
        target = (manifest.directory / dataset.path).resolve()
        args = [
            "generate",
            "--generator",
            spec["name"],
            "--count",
            str(spec["count"]),
            "--seed",
            str(spec["seed"]),
            *(["--item", str(spec["item"])] if "item" in spec else []),
            "--out",
            str(target),
        ]
        finished = run([*lab.command, *args], cwd=lab.directory, capture_output=True, text=True)
        if finished.returncode != 0:
            raise DatasetError(
                f"lab {lab.name} could not generate dataset '{dataset.name}': {finished.stderr.strip()}",
                "build the lab first (just build)",
            )
        done.append(manifest.check(dataset.name))
    return done
