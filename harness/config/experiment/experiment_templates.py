"""Experiments made from a template (a profile's `template`, e.g. experiments/templates/payload.toml): an experiment
file with `{dataset}` where a dataset's name goes, filled in for one document and written to a folder of its own, which
a run then reads as its --experiments-dir (`just payload FILE`). `just check` fills every profile's template with one of
the lab's datasets and plans it, so a broken template is found before anyone's document is measured."""

from __future__ import annotations

import pathlib

from harness.model.errors import ConfigError

#: The only placeholder a template has.
PLACEHOLDER = "{dataset}"
#: The file name a filled-in template gets (an experiment file's NNN-words.toml), and its typed half's.
EXPERIMENT_FILE = "900-payload.toml"
TYPED_EXPERIMENT_FILE = "901-payload-typed.toml"


def fill_template(
    template: pathlib.Path, dataset: str, folder: pathlib.Path, file_name: str = EXPERIMENT_FILE
) -> pathlib.Path:
    """The template with `dataset` in place of its placeholder, written to `folder` (made) as `file_name`; returns the
    folder."""
    if not template.is_file():
        raise ConfigError(f"no experiment template at {template}", "restore it with `git checkout -- experiments/`")
    text = template.read_text()
    if PLACEHOLDER not in text:
        raise ConfigError(f"{template} has no {PLACEHOLDER} placeholder", "name the dataset of each benchmark with it")
    folder.mkdir(parents=True, exist_ok=True)
    lines = [line for line in text.splitlines() if not line.startswith("#:schema")]
    (folder / file_name).write_text("\n".join(lines).replace(PLACEHOLDER, dataset) + "\n")
    return folder
