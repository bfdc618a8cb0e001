"""The user's own JSON documents (`just payload FILE`): each is checked, copied to datasets/local/<name>.json and listed
in datasets/local/manifest.json, both kept out of git (.gitignore), beside the lab's datasets in the manifest a run
reads (harness/config/datasets.py load_manifest). A document is untrusted input: its size is bounded, it must be UTF-8
JSON (no NaN or Infinity, no deeper nesting than Python's parser reads), an object or an array, and its name is made of
lower-case letters, digits and dashes; anything else is refused with what to do, before anything is copied."""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import pathlib
import re
import shutil
from typing import Any

from harness.config.data_files import read_json
from harness.model.canonical import canonical_digest
from harness.model.errors import ConfigError

#: The folder (under datasets/) of the user's documents, and their manifest there.
LOCAL_DIR = "local"
LOCAL_MANIFEST = "manifest.json"
#: The largest document `just payload` takes (bytes): the labs hold it in memory two or three times per process.
MAX_PAYLOAD_BYTES = 256 << 20
#: A document's name: what datasets, cells and file names are made of.
NAME = re.compile(r"^[a-z0-9][a-z0-9-]{0,47}$")


def local_entries(datasets_dir: pathlib.Path) -> list[dict]:
    """The entries of datasets/local/manifest.json ([] when there is none); each must name a file under local/."""
    path = datasets_dir / LOCAL_DIR / LOCAL_MANIFEST
    if not path.is_file():
        return []
    fix = f"delete {path} and add your documents again with `just payload FILE`"
    data = read_json(path, fix)
    entries = data.get("datasets") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not all(
        isinstance(e, dict) and str(e.get("path", "")).startswith(LOCAL_DIR + "/") and NAME.match(str(e.get("name")))
        for e in entries
    ):
        raise ConfigError(f"{path} is not a list of your documents under datasets/{LOCAL_DIR}/", fix)
    return entries


def payload_name(source: pathlib.Path, name: str | None) -> str:
    """The name asked for, or one made from the file's name; ConfigError for a name a dataset cannot have."""
    made = name if name is not None else re.sub(r"[^a-z0-9]+", "-", source.stem.lower()).strip("-")[:48]
    if not NAME.match(made or ""):
        raise ConfigError(
            f"{made!r} cannot name a document: lower-case letters, digits and dashes, at most 48",
            "give one with --name, e.g. --name my-orders",
        )
    return made


def check_document(source: pathlib.Path, max_bytes: int = MAX_PAYLOAD_BYTES) -> dict[str, Any]:
    """The document's canonical digest after checking it is a bounded, UTF-8 JSON object or array."""
    if not source.is_file():
        raise ConfigError(f"{source} is not a file", "give the path of a JSON document")
    size = source.stat().st_size
    if size > max_bytes:
        raise ConfigError(
            f"{source} is {size:,} bytes; a payload may have at most {max_bytes:,} bytes",
            "measure a representative part of it (the labs hold a document in memory several times per process)",
        )
    data = source.read_bytes()
    try:
        document = json.loads(data.decode("utf-8"), parse_constant=_refuse)
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"{source} is not UTF-8 ({e.reason} at byte {e.start})", "JSON is UTF-8: convert it"
        ) from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"{source} is not JSON: {e}", "fix the line and column it names") from None
    except RecursionError:
        raise ConfigError(f"{source} nests deeper than its document can be read", "measure a shallower one") from None
    except ValueError as e:
        raise ConfigError(f"{source}: {e}", "JSON has no NaN or Infinity: write them as null or strings") from None
    if not isinstance(document, (dict, list)):
        raise ConfigError(f"{source} holds a single {type(document).__name__}", "give an object or an array")
    return canonical_digest(data)


def _refuse(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def add_document(
    datasets_dir: pathlib.Path, source: pathlib.Path, name: str, taken: set[str], max_bytes: int = MAX_PAYLOAD_BYTES
) -> dict:
    """Checks the document, copies it to datasets/local/<name>.json and lists it (replacing an earlier document of the
    same name); `taken`: the lab's own dataset names, which a document may not have. Returns its entry."""
    if name in taken:
        raise ConfigError(f"{name!r} is the name of one of the lab's datasets", "give yours another with --name")
    canonical = check_document(source, max_bytes)
    folder = datasets_dir / LOCAL_DIR
    folder.mkdir(parents=True, exist_ok=True)
    target = folder / f"{name}.json"
    if source.resolve() != target.resolve():
        shutil.copyfile(source, target)
    data = target.read_bytes()
    entry = {
        "name": name,
        "path": f"{LOCAL_DIR}/{name}.json",
        "bytes": len(data),
        "sha256": hashlib.sha256(data).hexdigest(),
        "model": None,
        "provenance": f"the user's document {source.name}, added by `just payload` on "
        f"{_dt.datetime.now(_dt.timezone.utc):%Y-%m-%d}",
        "licence": "the user's own; kept out of git (datasets/local/)",
        "canonical": canonical,
    }
    entries = [e for e in local_entries(datasets_dir) if e.get("name") != name] + [entry]
    manifest = {"schema_version": 1, "datasets": entries}
    (folder / LOCAL_MANIFEST).write_text(json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
    return entry
