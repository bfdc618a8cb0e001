"""The dataset manifest (datasets/manifest.json) and the hash check that guards every run.

Most datasets are committed files. A generated one (its path under datasets/generated/, the one rule that keeps a file
out of git: .gitignore names that folder) is rebuilt byte for byte by the generator script its entry names, with a
fixed seed, by `just datasets` or by a run that needs it, and checked against its sha256 like any other. Checks stream
through the file (hashlib in 1 MiB blocks), so a file of hundreds of MB costs its read, not a Python pass.
"""

from __future__ import annotations

import hashlib
import json
import os
import pathlib
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass

from harness.config.data.local_datasets import LOCAL_DIR, LocalEntry, local_entries
from harness.config.data_files import read_json
from harness.model.canonical import RULE, CanonicalDigest, canonical_digest
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ConfigError, DatasetError, UnknownNameError
from harness.model.folder.field_types import field_hints, shown, type_problem
from harness.model.json_value import JsonValue, as_text

MANIFEST_FILE = "manifest.json"
SUPPORTED_SCHEMA = 1
#: The folder (under datasets/) of the files built by their generator scripts and never committed (.gitignore).
GENERATED_DIR = "generated"
#: A generator script's interpreter, by its suffix: the languages the lab ships.
INTERPRETERS = {".py": [sys.executable], ".js": ["node"], ".sh": ["bash"]}
_BLOCK = 1 << 20


def file_digest(path: pathlib.Path) -> tuple[int, str]:
    """(bytes, sha256) of a file, read in blocks."""
    digest = hashlib.sha256()
    size = 0
    with path.open("rb") as f:
        while block := f.read(_BLOCK):
            digest.update(block)
            size += len(block)
    return size, digest.hexdigest()


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
    # How the file is made again: {"lab", "name", "count", "seed"[, "item"]}, a lab's `generate` verb; or
    # {"script", "seed"[, "args"]}, a script under datasets/ run with --seed SEED [ARGS] --out PATH.
    generator: dict | None = None
    canonical: CanonicalDigest | None = None  # a single-document dataset's (harness/model/canonical.py)

    @property
    def committed(self) -> bool:
        """False for a generated file kept out of git (its path under datasets/generated/)."""
        return not self.path.startswith(GENERATED_DIR + "/")

    @property
    def local(self) -> bool:
        """True for a user's own document (datasets/local/, kept out of git: harness/config/data/local_datasets.py)."""
        return self.path.startswith(LOCAL_DIR + "/")


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

    def present(self, name: str) -> bool:
        """Whether the dataset's file is there (a generated one may not be built yet)."""
        return (self.directory / self.find(name).path).is_file()

    def check(self, name: str) -> Dataset:
        """Verifies size and sha256 of one dataset's file; raises DatasetError saying which file and what to do."""
        dataset = self.find(name)
        path = self.directory / dataset.path
        if not path.is_file():
            if not dataset.committed:
                raise DatasetError(
                    f"dataset '{name}' is generated and not built here yet: {path}",
                    "build it with `just datasets` (a run that needs it builds it first)",
                )
            if dataset.local:
                raise DatasetError(f"your document '{name}' is missing: {path}", "add it again: just payload FILE")
            raise DatasetError(f"dataset '{name}' is missing: {path}", "restore it with `git checkout -- datasets/`")
        size = path.stat().st_size
        digest = file_digest(path)[1] if size == dataset.bytes else "(size differs, not hashed)"
        if digest != dataset.sha256 or size != dataset.bytes:
            fix = (
                f"build it again with `just datasets` (its generator: datasets/{dataset.generator['script']})"
                if not dataset.committed and dataset.generator
                else "add your document again with `just payload FILE`"
                if dataset.local
                else "restore the file with `git checkout -- datasets/` (or regenerate it with its generator in "
                "datasets/generators/)"
            )
            raise DatasetError(
                f"dataset '{name}' ({path}) does not match the manifest: sha256 {digest[:12]}…, {size} bytes; "
                f"expected {dataset.sha256[:12]}…, {dataset.bytes} bytes",
                f"{fix}; if the change is intended, update datasets/manifest.json and say why in the commit",
            )
        return dataset

    def ensure(self, name: str, say: Callable[[str], None] = lambda _: None) -> Dataset:
        """check(), after building a generated dataset that is not there yet (with a line before and after)."""
        dataset = self.find(name)
        if not dataset.committed and not self.present(name):
            build_generated(self, dataset, say)
        return self.check(name)

    def check_canonical(self, name: str) -> None:
        """The manifest's canonical digest of a dataset must be the one computed now (a pure function of its bytes and
        the rule, so runs rely on the sha256 alone; this guards edits of the rule or the manifest)."""
        dataset = self.find(name)
        if dataset.canonical is None or not self.present(name):  # a generated file not built: nothing to compare
            return
        if canonical_digest((self.directory / dataset.path).read_bytes()) != dataset.canonical:
            raise DatasetError(
                f"dataset '{name}': its canonical digest ({RULE}) differs from the manifest's",
                "the canonical rule changed: run `python3 -m harness canonical-digests` and say why in the commit",
            )


def canonical_digests(manifest: Manifest, committed_only: bool = False) -> dict[str, CanonicalDigest]:
    """The canonical digest of every single-document dataset there is (the ones a parse result can be checked
    against), or of the committed ones only (a generated one costs a Python pass over hundreds of MB)."""
    return {
        d.name: canonical_digest((manifest.directory / d.path).read_bytes())
        for d in manifest.datasets.values()
        if d.layout == "document" and not d.local and manifest.present(d.name) and (d.committed or not committed_only)
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
    if not path.is_file():
        raise ConfigError(f"no dataset manifest at {path}", "run from a clone of the repository")
    data = read_json(path, "datasets/manifest.json is UTF-8 JSON (docs/extending.md, 'A dataset')")
    if not isinstance(data, dict) or not isinstance(entries := data.get("datasets"), list):
        raise ConfigError(f'{path} is not a manifest: no "datasets" list', "compare it with the repository's")
    if data.get("schema_version") != SUPPORTED_SCHEMA:
        raise ConfigError(
            f"{path} has schema_version {data.get('schema_version')!r}; this harness reads {SUPPORTED_SCHEMA}",
            "update the harness to the commit that wrote the manifest",
        )
    local = local_entries(directory)  # the user's own documents (just payload)
    own = {as_text(d.get("name")) for d in entries if isinstance(d, dict)}
    clash = sorted(str(e["name"]) for e in local if e["name"] in own)
    if clash:
        raise ConfigError(
            f"datasets/{LOCAL_DIR}/manifest.json: your document(s) {', '.join(clash)} now share a name with the lab's "
            "datasets (an update added them)",
            f"add yours again under another name (`python3 -m harness payload FILE --name NAME`) and delete "
            f"{', '.join(clash)} from datasets/{LOCAL_DIR}/manifest.json",
        )
    listed: list[JsonValue | LocalEntry] = [*entries, *local]
    names = [d.get("name") if isinstance(d, dict) else None for d in listed]
    twice = sorted({str(name) for name in names if names.count(name) > 1})
    if twice:
        raise ConfigError(
            f"{path}: {len(twice)} dataset name(s) listed twice: {', '.join(twice)} (the later entry would silently "
            "replace the earlier one, and cells would measure another payload)",
            "give each dataset its own name, or delete the copy",
        )
    try:
        datasets = {dataset.name: dataset for dataset in map(_dataset, listed)}
    except (KeyError, TypeError) as e:
        raise ConfigError(
            f"{path}: a dataset entry is malformed: {e!r}",
            "each entry has name, path, bytes, sha256, model, provenance, licence (docs/extending.md, 'A dataset')",
        ) from e
    for dataset in datasets.values():
        script = (dataset.generator or {}).get("script")
        if not dataset.committed and script is None:
            raise ConfigError(
                f"{path}: dataset '{dataset.name}' is under {GENERATED_DIR}/ (not committed) but names no generator "
                "script to build it",
                'add "generator": {"script": "generators/<name>.py", "seed": N} (docs/extending.md, \'A dataset\')',
            )
        if script is not None and pathlib.Path(script).suffix not in INTERPRETERS:
            raise ConfigError(
                f"{path}: dataset '{dataset.name}': generator script {script!r} is not a "
                f"{'/'.join(INTERPRETERS)} file",
                "name a script under datasets/generators/ in a language the lab ships",
            )
    return Manifest(directory, datasets)


def _dataset(entry: JsonValue | LocalEntry) -> Dataset:
    """One manifest entry, each value checked against its field's type (field_types.type_problem) before Dataset takes
    the entry as it is; TypeError when it is not an object, a value does not fit, a field is missing or unknown."""
    if not isinstance(entry, dict):
        raise TypeError(f"{shown(entry)} is not an object")
    hints = field_hints(Dataset)
    for key, value in entry.items():
        if key in hints and (why := type_problem(value, hints[key])):
            raise TypeError(f"{key} = {shown(value)}: {why}")
    construct: Callable[..., Dataset] = Dataset  # every value fits its field (above); Dataset names a missing one
    return construct(**entry)


def build_generated(manifest: Manifest, dataset: Dataset, say: Callable[[str], None] = print) -> Dataset:
    """Runs the dataset's generator script (`--seed SEED [ARGS] --out PATH`) into a temporary file beside the target,
    checks it against the manifest, then moves it into place; a file that does not match is left beside, named."""
    spec = dataset.generator or {}
    script = manifest.directory / spec["script"]
    if not script.is_file():
        raise DatasetError(
            f"dataset '{dataset.name}': its generator {script} is missing",
            "restore it with `git checkout -- datasets/`",
        )
    target = manifest.directory / dataset.path
    target.parent.mkdir(parents=True, exist_ok=True)
    partial = target.with_name(f".{target.name}.{os.getpid()}.partial")
    argv = [*INTERPRETERS[script.suffix], str(script), "--seed", str(spec["seed"]), *map(str, spec.get("args", []))]
    say(f"dataset {dataset.name}: generating {dataset.bytes / 1e6:.0f} MB with datasets/{spec['script']} …")
    started = time.monotonic()
    done = subprocess.run([*argv, "--out", str(partial)], capture_output=True, text=True)
    if done.returncode != 0:
        partial.unlink(missing_ok=True)
        raise DatasetError(
            f"the generator of dataset '{dataset.name}' failed: {(done.stderr.strip().splitlines() or ['?'])[-1]}",
            f"run it by hand to see why: {' '.join(argv)} --out /tmp/{target.name}",
        )
    size, digest = file_digest(partial)
    if (size, digest) != (dataset.bytes, dataset.sha256):
        rejected = target.with_name(target.name + ".rejected")
        os.replace(partial, rejected)
        raise DatasetError(
            f"dataset '{dataset.name}': its generator wrote {size} bytes, sha256 {digest[:12]}…; the manifest says "
            f"{dataset.bytes} bytes, {dataset.sha256[:12]}… (kept as {rejected})",
            "the generator or its interpreter changed: if intended, update datasets/manifest.json and say why",
        )
    os.replace(partial, target)
    say(f"dataset {dataset.name}: generated in {time.monotonic() - started:.1f} s, matches the manifest")
    return dataset


def regenerate(manifest: Manifest, labs: dict, run=subprocess.run) -> list[Dataset]:
    """Rewrites every generated dataset with its lab's `generate` verb, then checks it against the manifest.

    The generators are deterministic (fixed seeds, pinned Bogus): a changed hash means a generator or a library
    version changed, and the DatasetError says which file."""
    done = []
    for dataset in manifest.datasets.values():
        spec = dataset.generator
        if spec is None:
            continue
        if "script" in spec:
            done.append(build_generated(manifest, dataset))
            continue
        lab = labs[spec["lab"]].for_runtime()  # the lab's default runtime (its build must exist: just build)
        lab.check_requirements()
        target = (manifest.directory / dataset.path).resolve()
        generate = ["generate", "--generator", spec["name"], "--count", str(spec["count"]), "--seed", str(spec["seed"])]
        args = [*generate, *(["--item", str(spec["item"])] if "item" in spec else []), "--out", str(target)]
        finished = run([*lab.command, *args], cwd=lab.directory, capture_output=True, text=True)
        if finished.returncode != 0:
            raise DatasetError(
                f"lab {lab.name} could not generate dataset '{dataset.name}': {finished.stderr.strip()}",
                "build the lab first (just build)",
            )
        done.append(manifest.check(dataset.name))
    return done
