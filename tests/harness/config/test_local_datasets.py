"""The user's own documents (`just payload FILE`) are untrusted input: bounded, UTF-8 JSON objects or arrays only,
named safely, never named like a lab dataset, kept in datasets/local/ beside the lab's datasets in the manifest a run
reads; a broken one is an error with what to do, before anything is copied."""

from __future__ import annotations

import json
import os
import pathlib
import shutil

import pytest

from harness.config.data.datasets import load_manifest
from harness.config.data.local_datasets import (
    LOCAL_DIR,
    MAX_DOCUMENT_DEPTH,
    add_document,
    check_document,
    local_entries,
    payload_name,
)
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ConfigError, DatasetError


@pytest.fixture
def datasets(tmp_path) -> pathlib.Path:
    """A datasets folder with the lab's manifest (no files: nothing here reads them)."""
    folder = tmp_path / "datasets"
    folder.mkdir()
    shutil.copy(DATASETS_DIR / "manifest.json", folder / "manifest.json")
    return folder


def _file(tmp_path: pathlib.Path, content: bytes, name: str = "orders.json") -> pathlib.Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


@pytest.mark.parametrize(
    "content, message",
    [
        (b'{"a": "\xff"}', "is not UTF-8"),
        (b'{"a": NaN}', "NaN is not JSON"),
        (b'{"a": 1,}', "is not JSON"),
        (b"[" * 200_000 + b"]" * 200_000, "nests deeper than its document can be read"),
        (b'"just a string"', "holds a single value"),
        (b"", "is not JSON"),
        (b'{"a": 1, "a": 2}', "names 'a' twice"),
        (b'{"a": 1e400}', "beyond a double"),
        (b'{"a": ' + b"9" * 400 + b"}", "too large to convert to float"),
    ],
)
def test_a_broken_document_is_refused_with_what_to_do(tmp_path, content, message):
    with pytest.raises(ConfigError, match=message):
        check_document(_file(tmp_path, content))


@pytest.mark.parametrize(
    "content, message",
    [
        (b'{"a": ["x", "ab\\ud800c"]}', r"the value at /a/1 holds a lone surrogate U\+D800 \(\\ud800, half a UTF-16"),
        (b'[{"b": "\\udfff"}]', r"the value at /0/b holds a lone surrogate U\+DFFF"),
        (b'{"a": {"\\udc00": 1}}', r"the value at /a holds a name with a lone surrogate U\+DC00"),
        (
            b"[" * 65 + b"]" * 65,
            r"the value at (/0){50}\.\.\. \(64 levels down\) is nested deeper than 64 objects and arrays",
        ),
        (
            b'{"x":' * 100 + b"1" + b"}" * 100,
            r"the value at (/x){50}\.\.\. \(64 levels down\) is nested deeper than 64",
        ),
        (b"[" * 950 + b"]" * 950, "is nested deeper than 64 objects and arrays"),
    ],
)
def test_a_document_the_labs_would_not_read_alike_is_refused_naming_the_place(tmp_path, content, message):
    """A lone surrogate is not Unicode (each lab keeps, replaces or refuses it); a document deeper than the .NET lab's
    parsers read (System.Text.Json's and Json.NET's default MaxDepth, 64) would fail its cells."""
    with pytest.raises(ConfigError, match=message) as error:
        check_document(_file(tmp_path, content))
    assert str(error.value).startswith(str(tmp_path / "orders.json"))
    assert "surrogate" in error.value.hint or f"at most {MAX_DOCUMENT_DEPTH} deep" in error.value.hint


def test_a_surrogate_pair_and_a_document_at_the_depth_limit_are_taken(tmp_path):
    assert check_document(_file(tmp_path, b'{"smile": "\\ud83d\\ude00"}'))[1]["leaves"] == 1
    deepest = b"[" * MAX_DOCUMENT_DEPTH + b"]" * MAX_DOCUMENT_DEPTH
    assert check_document(_file(tmp_path, deepest, "deep.json"))[1]["leaves"] == 1


def test_a_local_manifest_with_a_lone_surrogate_is_refused_naming_the_field(datasets, tmp_path):
    (datasets / LOCAL_DIR).mkdir()
    (datasets / LOCAL_DIR / "manifest.json").write_text('{"schema_version": 1, "datasets": [{"name": "a\\ud800"}]}')
    with pytest.raises(ConfigError, match=r"datasets\[0\]\.name holds a lone surrogate U\+D800") as error:
        local_entries(datasets)
    assert "write the character whole" in error.value.hint


def test_a_document_over_the_bound_is_refused_before_it_is_read(tmp_path):
    with pytest.raises(ConfigError, match="a payload may have at most 10 bytes"):
        check_document(_file(tmp_path, b'{"a": [1, 2, 3]}'), max_bytes=10)


def test_a_name_is_made_from_the_file_or_refused_when_it_cannot_name_a_dataset(tmp_path):
    assert payload_name(pathlib.Path("My Orders (2026).json"), None) == "my-orders-2026"
    assert payload_name(pathlib.Path("x.json"), "orders-v2") == "orders-v2"
    for bad in ("../x", "Orders", "-x", "a" * 49, "x\n", "manifest"):
        with pytest.raises(ConfigError, match="cannot name a document"):
            payload_name(pathlib.Path("x.json"), bad)


def test_a_document_joins_the_manifest_a_run_reads_and_is_checked_like_any_dataset(datasets, tmp_path):
    entry = add_document(datasets, _file(tmp_path, b'{"orders": [{"id": 1, "total": 9.5}]}'), "orders", set())
    manifest = load_manifest(datasets)
    assert manifest.datasets["orders"].local and manifest.datasets["orders"].path == f"{LOCAL_DIR}/orders.json"
    assert entry["canonical"]["leaves"] == 2 and manifest.check("orders").sha256 == entry["sha256"]
    add_document(datasets, _file(tmp_path, b'{"orders": []}'), "orders", set())  # again: replaces it
    assert load_manifest(datasets).datasets["orders"].bytes == len(b'{"orders": []}')
    (datasets / LOCAL_DIR / "orders.json").unlink()
    with pytest.raises(DatasetError, match="your document 'orders' is missing") as missing:
        load_manifest(datasets).check("orders")
    assert missing.value.hint == "add it again: just payload FILE"


def test_a_lab_datasets_name_is_refused_and_a_tampered_local_manifest_is_an_error(datasets, tmp_path):
    with pytest.raises(ConfigError, match="is the name of one of the lab's datasets"):
        add_document(datasets, _file(tmp_path, b"[1]"), "twitter", {"twitter"})
    entry = add_document(datasets, _file(tmp_path, b"[1]"), "mine", {"twitter"})
    local = datasets / LOCAL_DIR / "manifest.json"
    for tampered in (
        {**entry, "path": "local/../../etc/passwd"},
        {**entry, "path": "local/other.json"},
        {**entry, "bytes": "3"},
        {**entry, "generator": "x"},
        {**entry, "canonical": None},
    ):
        local.write_text(json.dumps({"datasets": [tampered]}))
        with pytest.raises(ConfigError, match="is not a list of your documents under datasets/local/"):
            load_manifest(datasets)
    local.write_text(json.dumps({"datasets": [{**entry, "name": "twitter", "path": "local/twitter.json"}]}))
    with pytest.raises(ConfigError, match="now share a name with the lab's datasets"):
        load_manifest(datasets)


def test_a_document_added_again_is_a_new_file_so_a_run_that_linked_the_old_one_keeps_it(datasets, tmp_path):
    add_document(datasets, _file(tmp_path, b"[1]"), "mine", set())
    linked = tmp_path / "run-copy.json"
    os.link(datasets / LOCAL_DIR / "mine.json", linked)  # as a run's datasets folder holds it
    add_document(datasets, _file(tmp_path, b"[2]"), "mine", set())
    assert linked.read_bytes() == b"[1]" and (datasets / LOCAL_DIR / "mine.json").read_bytes() == b"[2]"


def test_the_copy_and_the_local_manifest_are_readable_by_the_labs_container_user(datasets, tmp_path):
    """A containerized lab runs as a user of its own: mkstemp's 0600 made every cell of a payload run on the Docker
    backend fail 'permission denied' (run payload-typed-shop-orders-2026-11-28, deleted)."""
    add_document(datasets, _file(tmp_path, b'{"a": 1}'), "orders", set())
    for name in ("orders.json", "manifest.json"):
        assert (datasets / LOCAL_DIR / name).stat().st_mode & 0o444 == 0o444, name
