"""The digest of the files a run's lines in the store come from: results.jsonl, run.json, environment.json and the
experiment and lab files the run kept (its figures are judged against those). The same folder imported again has the
same digest and is left as it is; a folder that changed (a resumed run, a copy made whole) has another and replaces
its run's lines. Files the store does not read (the report, logs, raw output, timeline.jsonl that each report appends
to) are left out, so rendering a report again does not make its run new to the store."""

from __future__ import annotations

import hashlib
import pathlib

from harness.model.errors import HarnessError
from harness.model.folder.run_folder import (
    ENVIRONMENT_FILE,
    KEPT_EXPERIMENTS_DIR,
    KEPT_LAB_FILES,
    KEPT_LABS_DIR,
    RESULTS_FILE,
    RUN_FILE,
)


def digested_files(directory: pathlib.Path) -> list[pathlib.Path]:
    """The files the digest covers, in a fixed order (each may be absent)."""
    kept_experiments = sorted((directory / KEPT_EXPERIMENTS_DIR).glob("*.toml"))
    kept_labs = sorted(p for name in KEPT_LAB_FILES for p in (directory / KEPT_LABS_DIR).glob(f"*/{name}"))
    return [directory / RESULTS_FILE, directory / RUN_FILE, directory / ENVIRONMENT_FILE, *kept_experiments, *kept_labs]


def folder_digest(directory: pathlib.Path) -> str:
    """sha256 over each covered file's name, length and bytes (an absent file counted as absent); a file that cannot be
    read is HarnessError naming it."""
    digest = hashlib.sha256()
    for path in digested_files(directory):
        name = path.relative_to(directory).as_posix().encode()
        try:
            data = path.read_bytes() if path.is_file() else None
        except OSError as e:
            raise HarnessError(
                f"{path} cannot be read ({e.strerror})", "make the run folder readable (its owner and mode), or copy it"
            ) from None
        digest.update(name + b"\0" + (b"absent" if data is None else str(len(data)).encode() + b"\0" + data) + b"\0")
    return digest.hexdigest()
