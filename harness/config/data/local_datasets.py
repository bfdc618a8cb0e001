"""The user's own JSON documents (`just payload FILE`): each is checked, copied to datasets/local/<name>.json and listed
in datasets/local/manifest.json, both kept out of git (.gitignore), beside the lab's datasets in the manifest a run
reads (harness/config/data/datasets.py load_manifest). A document is untrusted input: its size is bounded, it must be
UTF-8 JSON (no NaN or Infinity, no string or name with a lone surrogate, nested no deeper than every lab reads), an
object or an array, and its name is made of lower-case letters, digits and dashes; anything else is refused with what to
do, before anything is copied."""

from __future__ import annotations

import datetime as _dt
import hashlib
import json
import math
import os
import pathlib
import re
import tempfile
from typing import NotRequired, TypedDict, TypeGuard

from harness.config.data_files import read_json
from harness.model.canonical import CanonicalDigest, canonical_digest
from harness.model.characters import LONE_SURROGATE, code_point
from harness.model.errors import ConfigError
from harness.model.json_value import JsonObject, JsonValue

#: The folder (under datasets/) of the user's documents, and their manifest there.
LOCAL_DIR = "local"
LOCAL_MANIFEST = "manifest.json"
#: The largest document `just payload` takes (bytes): the labs hold it in memory two or three times per process.
MAX_PAYLOAD_BYTES = 256 << 20
#: The deepest nesting of objects and arrays a document may have: what every lab reads. The .NET lab's parsers are the
#: shallowest: System.Text.Json (JsonDocument, JsonNode, JsonSerializer: JsonReaderOptions.MaxDepth) and Json.NET 13
#: (JToken, JsonConvert: MaxDepth) default to 64 and throw beyond it, and the lab keeps their defaults
#: (lab/dotnet/src/Conformance/ConformanceParsers.cs: "depth 64"); Node's JSON.parse and the C++ parsers read deeper.
MAX_DOCUMENT_DEPTH = 64
#: A document's name: what datasets, cells and file names are made of ("manifest" is the local manifest's own file).
NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,47}")
RESERVED = frozenset({"manifest"})
_SHA256 = re.compile(r"[0-9a-f]{64}")
#: A document's model, when it has one, is root "document" of the space named like it
#: (datasets/local/models/<name>.toml; harness/config/data/local_models.py).
DOCUMENT_ROOT = "document"


class LocalEntry(TypedDict):
    """An entry of datasets/local/manifest.json, as add_document writes it and _valid_entry checks it on read."""

    name: str
    path: str  # local/<name>.json
    bytes: int
    sha256: str
    model: NotRequired[str | None]  # "<name>.document" when the document has a model (add_document writes None)
    provenance: str
    licence: str
    canonical: CanonicalDigest


def _valid_name(name: object) -> bool:
    return isinstance(name, str) and NAME.fullmatch(name) is not None and name not in RESERVED


def _valid_entry(entry: object) -> TypeGuard[LocalEntry]:
    """An entry as add_document writes it: its file exactly local/<name>.json, every field of its type."""
    if not isinstance(entry, dict) or not _valid_name(entry.get("name")):
        return False
    canonical = entry.get("canonical")
    return (
        entry.get("path") == f"{LOCAL_DIR}/{entry['name']}.json"
        and isinstance(entry.get("bytes"), int)
        and isinstance(entry.get("sha256"), str)
        and _SHA256.fullmatch(entry["sha256"]) is not None
        and entry.get("model") in (None, f"{entry['name']}.{DOCUMENT_ROOT}")
        and "generator" not in entry
        and all(isinstance(entry.get(k), str) for k in ("provenance", "licence"))
        and isinstance(canonical, dict)
        and isinstance(canonical.get("rule"), str)
        and isinstance(canonical.get("sha256"), str)
        and isinstance(canonical.get("leaves"), int)
        and set(entry) <= {"name", "path", "bytes", "sha256", "model", "provenance", "licence", "canonical"}
    )


def local_entries(datasets_dir: pathlib.Path) -> list[LocalEntry]:
    """The entries of datasets/local/manifest.json ([] when there is none); each must name a file under local/."""
    path = datasets_dir / LOCAL_DIR / LOCAL_MANIFEST
    if not path.is_file():
        return []
    fix = f"delete {path} and add your documents again with `just payload FILE`"
    data = read_json(path, fix)
    listed = data.get("datasets") if isinstance(data, dict) else None
    entries = [e for e in listed if _valid_entry(e)] if isinstance(listed, list) else []
    if not isinstance(listed, list) or len(entries) != len(listed):
        raise ConfigError(f"{path} is not a list of your documents under datasets/{LOCAL_DIR}/", fix)
    names = [e["name"] for e in entries]
    if len(set(names)) != len(names):
        raise ConfigError(f"{path} lists a document twice", fix)
    return entries


def payload_name(source: pathlib.Path, name: str | None) -> str:
    """The name asked for, or one made from the file's name; ConfigError for a name a dataset cannot have."""
    made = name if name is not None else re.sub(r"[^a-z0-9]+", "-", source.stem.lower()).strip("-")[:48]
    if not _valid_name(made):
        raise ConfigError(
            f"{made!r} cannot name a document: lower-case letters, digits and dashes, at most 48, not "
            f"{', '.join(sorted(RESERVED))}",
            "rename the file (`just payload` takes the name from it), or run "
            "`python3 -m harness payload FILE --name my-orders`",
        )
    return made


def check_document(source: pathlib.Path, max_bytes: int = MAX_PAYLOAD_BYTES) -> tuple[bytes, CanonicalDigest]:
    """The document's bytes and canonical digest, after checking it is a bounded, UTF-8 JSON object or array with
    finite numbers and no name twice in an object (labs keep one or both: their results would differ)."""
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
        document = json.loads(
            data.decode("utf-8"), parse_constant=_refuse, parse_float=_finite, object_pairs_hook=_unique
        )
        is_container = isinstance(document, (dict, list))
        problem = _first_problem(document, 1) if is_container else None
        del document  # the canonical pass parses the bytes again
        canonical = canonical_digest(data) if is_container and problem is None else None
    except UnicodeDecodeError as e:
        raise ConfigError(
            f"{source} is not UTF-8 ({e.reason} at byte {e.start})", "JSON is UTF-8: convert it"
        ) from None
    except json.JSONDecodeError as e:
        raise ConfigError(f"{source} is not JSON: {e}", "fix the line and column it names") from None
    except RecursionError:
        raise ConfigError(f"{source} nests deeper than its document can be read", "measure a shallower one") from None
    except (ValueError, OverflowError) as e:
        raise ConfigError(f"{source}: {e}", "write such a value as a string, or leave it out") from None
    if canonical is None:  # a single value (no problem looked for), or a place the labs cannot read alike
        if problem is None:
            raise ConfigError(f"{source} holds a single value, not an object or an array", "give an object or an array")
        parts, what, fix = problem
        raise ConfigError(f"{source}: the value at {_pointer(parts)} {what}", fix)
    return data, canonical


def _first_problem(value: JsonValue, depth: int) -> tuple[list[str], str, str] | None:
    """(its place as JSON pointer parts, what, fix) for the first place the labs cannot read the document alike: a
    container nested deeper than MAX_DOCUMENT_DEPTH, a string or a name holding a lone surrogate; None when there is
    none. It stops one level past the limit, so it recurses at most MAX_DOCUMENT_DEPTH + 1 deep."""
    if isinstance(value, str):
        bad = LONE_SURROGATE.search(value)
        return None if bad is None else ([], f"holds a lone surrogate {_surrogate(bad.group(0))}", _SURROGATE_FIX)
    if not isinstance(value, (dict, list)):
        return None
    if depth > MAX_DOCUMENT_DEPTH:
        return [], f"is nested deeper than {MAX_DOCUMENT_DEPTH} objects and arrays", _DEPTH_FIX
    for name, item in value.items() if isinstance(value, dict) else enumerate(value):
        bad = LONE_SURROGATE.search(name) if isinstance(name, str) else None
        if bad is not None:
            return [], f"holds a name with a lone surrogate {_surrogate(bad.group(0))}", _SURROGATE_FIX
        found = _first_problem(item, depth + 1)
        if found is not None:
            found[0].insert(0, str(name))
            return found
    return None


def _surrogate(character: str) -> str:
    """'U+D800 (\\ud800, half a UTF-16 pair)'."""
    return f"{code_point(character)} (\\u{ord(character):04x}, half a UTF-16 pair)"


def _pointer(parts: list[str]) -> str:
    """The RFC 6901 pointer of a place ("/" for the top), a character that cannot be shown escaped (\\ud800); one
    longer than 120 characters shortened, with how many levels down it is."""
    text = "".join("/" + part.replace("~", "~0").replace("/", "~1") for part in parts) or "/"
    shown = "".join(c if c.isprintable() and not LONE_SURROGATE.match(c) else f"\\u{ord(c):04x}" for c in text)
    return shown if len(shown) <= 120 else f"{shown[:100]}... ({len(parts)} levels down)"


_SURROGATE_FIX = (
    "JSON text with an unpaired surrogate is not Unicode (RFC 8259 8.2), and the labs do not read it alike (kept, "
    "replaced by U+FFFD or refused): write the character whole (an escaped pair such as \\ud83d\\ude00, or the "
    "character itself), or remove the escape"
)
_DEPTH_FIX = (
    f"the .NET lab's parsers read at most {MAX_DOCUMENT_DEPTH} levels (System.Text.Json's and Json.NET's default "
    "MaxDepth), so its cells would fail on it: measure a representative part of the document nested at most "
    f"{MAX_DOCUMENT_DEPTH} deep"
)


def _refuse(name: str) -> float:
    raise ValueError(f"{name} is not JSON")


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise ValueError(
            f"the number {text[:40]} is beyond a double (the labs' parsers read it as infinity or refuse it)"
        )
    return value


def _unique(pairs: list[tuple[str, JsonValue]]) -> JsonObject:
    names = [name for name, _ in pairs]
    if len(set(names)) != len(names):
        twice = next(name for name in names if names.count(name) > 1)
        raise ValueError(f"an object names {twice[:40]!r} twice (parsers keep the first, the last or both)")
    return dict(pairs)


def write_atomically(path: pathlib.Path, data: bytes) -> None:
    """The file replaced whole (a new inode: a run folder that hard-linked the old one keeps what it measured), readable
    by every user as the lab's own datasets are: a lab in a container runs as a user of its own (mkstemp's 0600 left
    every containerized cell of a payload run "permission denied")."""
    handle, temporary = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.chmod(temporary, 0o644)
        os.replace(temporary, path)
    except BaseException:
        pathlib.Path(temporary).unlink(missing_ok=True)
        raise


def add_document(
    datasets_dir: pathlib.Path, source: pathlib.Path, name: str, taken: set[str], max_bytes: int = MAX_PAYLOAD_BYTES
) -> LocalEntry:
    """Checks the document, copies it to datasets/local/<name>.json and lists it (replacing an earlier document of the
    same name); `taken`: the lab's own dataset names, which a document may not have. Returns its entry."""
    if name in taken:
        raise ConfigError(
            f"{name!r} is the name of one of the lab's datasets",
            "rename the file (`just payload` takes the name from it), or run "
            "`python3 -m harness payload FILE --name my-orders`",
        )
    data, canonical = check_document(source, max_bytes)
    folder = datasets_dir / LOCAL_DIR
    folder.mkdir(parents=True, exist_ok=True)
    write_atomically(folder / f"{name}.json", data)  # the bytes checked, not a second read of the file
    entry: LocalEntry = {
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
    write_atomically(folder / LOCAL_MANIFEST, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
    return entry


def set_document_model(datasets_dir: pathlib.Path, name: str, typed: bool) -> None:
    """Names (or clears) the document's model, "<name>.document", in the local manifest."""
    entries = local_entries(datasets_dir)
    for entry in entries:
        if entry["name"] == name:
            entry["model"] = f"{name}.{DOCUMENT_ROOT}" if typed else None
    manifest = {"schema_version": 1, "datasets": entries}
    path = datasets_dir / LOCAL_DIR / LOCAL_MANIFEST
    write_atomically(path, (json.dumps(manifest, indent=2, ensure_ascii=False) + "\n").encode())
