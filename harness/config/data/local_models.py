"""The model of a user's document (`just payload FILE`): datasets/local/models/<name>.toml, the space named like the
document with root "document" (harness/config/data/declared_models.py reads it like the lab's), which the .NET lab's
typed cells bind the document to. It is either the user's own file (`--model SCHEMA`, checked as untrusted input before
it is kept) or the one inferred from the document (harness/codegen/infer_model.py), written out for review; once there
it is kept, edits included, until the user gives another or deletes it."""

from __future__ import annotations

import pathlib
import tempfile

from harness.config.data.declared_models import MAX_MODEL_FILE_BYTES, MODEL_DIRS, load_space
from harness.config.data.local_datasets import DOCUMENT_ROOT, write_atomically
from harness.config.data_files import read_text
from harness.model.errors import ConfigError

LOCAL_MODELS = MODEL_DIRS[1]
_FIX = (
    "fix the model file (docs/experiments.md, 'Models as data'), or measure untyped only: just payload FILE --untyped"
)


def local_model_path(datasets_dir: pathlib.Path, name: str) -> pathlib.Path:
    return datasets_dir / LOCAL_MODELS / f"{name}.toml"


def keep_model(datasets_dir: pathlib.Path, name: str, text: str) -> pathlib.Path:
    """Checks `text` as the model file of document `name` (space `name`, a root named "document") and keeps it."""
    with tempfile.TemporaryDirectory() as scratch:
        trial = pathlib.Path(scratch) / f"{name}.toml"
        trial.write_text(text, encoding="utf-8")
        space = load_space(trial)
    if DOCUMENT_ROOT not in space.roots:
        raise ConfigError(
            f"the model for your document {name} has no root named {DOCUMENT_ROOT!r} (it has {', '.join(space.roots)})",
            f'name the document\'s type under [roots]: {DOCUMENT_ROOT} = "<its type>"',
        )
    path = local_model_path(datasets_dir, name)
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomically(path, text.encode("utf-8"))
    return path


def adopt_model(datasets_dir: pathlib.Path, name: str, source: pathlib.Path) -> pathlib.Path:
    """The user's model file (`--model SCHEMA`), bounded and checked, kept as the document's."""
    return keep_model(datasets_dir, name, read_text(source, _FIX, MAX_MODEL_FILE_BYTES))


def kept_model(datasets_dir: pathlib.Path, name: str) -> pathlib.Path | None:
    """The document's model file from an earlier `just payload` (checked again: the user may have edited it)."""
    path = local_model_path(datasets_dir, name)
    if not path.is_file():
        return None
    keep_model(datasets_dir, name, read_text(path, _FIX, MAX_MODEL_FILE_BYTES))
    return path
