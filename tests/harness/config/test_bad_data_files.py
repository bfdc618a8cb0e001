"""A corpus of broken data files other than experiments (those are tests/fixtures/broken-experiments): the dataset
manifest, the profiles table, hosts.toml, a lab.toml and the user's lab.local.toml. Each is refused with a
ConfigError naming the file and the fault, never a traceback, never accepted silently."""

from __future__ import annotations

import json
import pathlib
import shutil

import pytest

from harness.config.data.datasets import load_manifest
from harness.config.data_files import read_json, read_toml
from harness.config.experiment.profiles import load_profiles
from harness.config.hosts import load_hosts
from harness.config.lab.labs import load_labs
from harness.config.lab.vendor_terms import accepted_terms
from harness.model.defaults import DATASETS_DIR, LABS_DIR, PROFILES_FILE
from harness.model.errors import ConfigError

MANIFEST = json.loads((DATASETS_DIR / "manifest.json").read_text())


def _manifest(tmp_path: pathlib.Path, data: object | None = None, raw: bytes | None = None) -> pathlib.Path:
    (tmp_path / "manifest.json").write_bytes(raw if raw is not None else json.dumps(data).encode())
    return tmp_path


def _with_first(change: dict) -> dict:
    first = {**MANIFEST["datasets"][0], **change}
    return {**MANIFEST, "datasets": [first, *MANIFEST["datasets"][1:]]}


MANIFEST_CASES = {
    "duplicate name (finding 4: it silently swapped the input)": (
        {**MANIFEST, "datasets": [*MANIFEST["datasets"], {**MANIFEST["datasets"][1], "name": "myclass-pascal"}]},
        "dataset name(s) listed twice: myclass-pascal",
    ),
    "not JSON": (b"{ nope", "is not valid JSON"),
    "NaN bytes": (json.dumps(_with_first({"bytes": 1})).replace(": 1,", ": NaN,", 1).encode(), "NaN is not a number"),
    "Infinity": (
        json.dumps(_with_first({"bytes": 1})).replace(": 1,", ": Infinity,", 1).encode(),
        "Infinity is not a number",
    ),
    "Latin-1 provenance": (
        json.dumps(_with_first({"provenance": "caf\u00e9"}), ensure_ascii=False).encode("latin-1"),
        "is not UTF-8 (byte 0xe9",
    ),
    "a NUL byte": (b'{"schema_version": 1,\x00 "datasets": []}', "is binary (a NUL byte on line 1)"),
    "a list at the top": ([], 'no "datasets" list'),
    "datasets not a list": ({"schema_version": 1, "datasets": {}}, 'no "datasets" list'),
    "nested 100,000 deep": (b"[" * 100_000 + b"]" * 100_000, "nests deeper than JSON can be read"),
    "nested 40 deep": (json.dumps(_with_first({"extra": [[[[[[[[[[[[[[[[[[[[]]]]]]]]]]]]]]]]]]]]})).encode(),
                       "nests more than 16 levels deep"),  # fmt: skip
    "a bidi override in a name": (_with_first({"name": "evil\u202eLNOSJ"}), "holds the invisible character U+202E"),
    "a zero-width space in a name": (
        _with_first({"name": "twitter\u200b"}),
        "name holds the invisible character U+200B",
    ),
    "a lone surrogate in a provenance": (
        _with_first({"provenance": "caf\ud800"}),
        "datasets[0].provenance holds a lone surrogate U+D800 (half a UTF-16 pair)",
    ),
    "a 5,000-character provenance": (_with_first({"provenance": "x" * 5000}), "has 5,000 characters"),
    "an entry without sha256": (
        {**MANIFEST, "datasets": [{k: v for k, v in MANIFEST["datasets"][0].items() if k != "sha256"}]},
        "a dataset entry is malformed",
    ),
    "an entry that is a string": ({**MANIFEST, "datasets": ["myclass"]}, "a dataset entry is malformed"),
    "schema_version 2": ({**MANIFEST, "schema_version": 2}, "has schema_version 2"),
}


@pytest.mark.parametrize("case", MANIFEST_CASES, ids=list(MANIFEST_CASES))
def test_a_broken_manifest_is_refused(case, tmp_path):
    data, expected = MANIFEST_CASES[case]
    folder = _manifest(tmp_path, raw=data) if isinstance(data, bytes) else _manifest(tmp_path, data)
    with pytest.raises(ConfigError, match=None) as error:
        load_manifest(folder)
    assert expected in str(error.value), str(error.value)
    assert error.value.hint


def test_a_missing_manifest_is_refused(tmp_path):
    with pytest.raises(ConfigError, match="no dataset manifest"):
        load_manifest(tmp_path)


PROFILES = PROFILES_FILE.read_text()
PROFILE_CASES = {
    "not TOML": ("[profiles.smoke\n", "is not valid TOML"),
    "no profiles table": ("schema_version = 1\n", "has no [profiles.<name>] table"),
    "profiles a string": ('schema_version = 1\nprofiles = "x"\n', "has no [profiles.<name>] table"),
    "a duplicate profile": (PROFILES + "\n[profiles.smoke]\n", "is not valid TOML"),  # TOML refuses a table twice
    "Latin-1": (None, "is not UTF-8"),
    "nan in a profile": (
        PROFILES.replace("[profiles.smoke]\n", "[profiles.smoke]\nbudget_nan = nan\n", 1),
        "profiles.smoke.budget_nan is nan, not a finite number",
    ),
}


@pytest.mark.parametrize("case", PROFILE_CASES, ids=list(PROFILE_CASES))
def test_a_broken_profiles_table_is_refused(case, tmp_path):
    text, expected = PROFILE_CASES[case]
    path = tmp_path / "profiles.toml"
    if text is None:
        path.write_bytes(PROFILES.encode().replace(b"CI smoke", b"CI sm\xf6ke", 1))
    else:
        path.write_text(text)
    with pytest.raises(ConfigError) as error:
        load_profiles(path)
    assert expected in str(error.value), str(error.value)


HOST_CASES = {
    "not TOML": ('[hosts.a\ncontext = "x"\n', "is not valid TOML"),
    "a host named twice": ('[hosts.a]\ncontext = "x"\n[hosts.a]\ncontext = "y"\n', "is not valid TOML"),
    "an upper-case name": ('[hosts.Box]\ncontext = "x"\n', "is not lower-case letters"),
    "a bidi context": ('[hosts.a]\ncontext = "x\\u202e"\n', "holds the invisible character U+202E"),
    "a right-to-left mark in a note": (
        '[hosts.a]\nnote = "x\\u200f"\n',
        "hosts.a.note holds the invisible character U+200F",
    ),
    "a carriage return in a context": (
        '[hosts.a]\ncontext = "x\\r"\n',
        "hosts.a.context holds the invisible character U+000D",
    ),
    "binary": (b"\x00\x01\x02", "is binary"),
}


def _refused(path: pathlib.Path, content: str | bytes, load, expected: str) -> None:
    """Writes the file, loads it, and checks the ConfigError says `expected`."""
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    with pytest.raises(ConfigError) as error:
        load(path)
    assert expected in str(error.value), str(error.value)


@pytest.mark.parametrize("case", HOST_CASES, ids=list(HOST_CASES))
def test_a_broken_hosts_file_is_refused(case, tmp_path):
    _refused(tmp_path / "hosts.toml", HOST_CASES[case][0], load_hosts, HOST_CASES[case][1])


def _labs(tmp_path: pathlib.Path, change) -> pathlib.Path:
    labs = tmp_path / "lab"
    for name in ("dotnet", "reference-node"):
        (labs / name).mkdir(parents=True)
        shutil.copy(LABS_DIR / name / "lab.toml", labs / name / "lab.toml")
    change(labs)
    return labs


LAB_CASES = {
    "two labs with one name": (
        lambda labs: (labs / "copy").mkdir() or shutil.copy(labs / "dotnet" / "lab.toml", labs / "copy" / "lab.toml"),
        "both have name 'dotnet'",
    ),
    "lab.toml not TOML": (lambda labs: (labs / "dotnet" / "lab.toml").write_text("name = \n"), "is not valid TOML"),
    "lab.toml without a name": (
        lambda labs: (labs / "dotnet" / "lab.toml").write_text('language = "x"\n'),
        "is malformed",
    ),
    "lab.toml of 5 MB": (
        lambda labs: (labs / "dotnet" / "lab.toml").write_text("# " + "x" * 5_000_000 + "\n"),
        "more than a data file may be",
    ),
}


@pytest.mark.parametrize("case", LAB_CASES, ids=list(LAB_CASES))
def test_a_broken_lab_file_is_refused(case, tmp_path):
    change, expected = LAB_CASES[case]
    with pytest.raises(ConfigError) as error:
        load_labs(_labs(tmp_path, change), accepted=frozenset())
    assert expected in str(error.value), str(error.value)


LOCAL_CASES = {
    "not TOML": ("accept_vendor_terms = [\n", "is not valid TOML"),
    "unknown setting": ("colour = 1\n", "unknown setting 'colour'"),
    "not a list": ('accept_vendor_terms = "ServiceStack.Text"\n', "must be a list of package names"),
    "over its size": ("# " + "x" * 70_000 + "\n", "more than a data file may be"),
    "Latin-1": (b"# caf\xe9\n", "is not UTF-8"),
}


@pytest.mark.parametrize("case", LOCAL_CASES, ids=list(LOCAL_CASES))
def test_a_broken_local_settings_file_is_refused(case, tmp_path):
    _refused(tmp_path / "lab.local.toml", LOCAL_CASES[case][0], accepted_terms, LOCAL_CASES[case][1])


def test_the_readers_name_the_file_and_the_place(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text("a = 1\n[b]\nc = [1.0, inf]\n")
    with pytest.raises(ConfigError, match=r"x.toml: b.c\[1\] is inf, not a finite number"):
        read_toml(path, "fix")
    path.write_text('{"a": {"b": "\\u0007"}}')
    with pytest.raises(ConfigError, match=r"x.toml: a.b holds the invisible character U\+0007"):
        read_json(path, "fix")


def test_a_file_saved_with_crlf_line_endings_reads_as_with_newlines_and_a_carriage_return_in_a_value_is_refused(
    tmp_path,
):
    path = tmp_path / "x.toml"
    path.write_bytes(b'a = 1\r\nb = """two\r\nlines"""\r\n')
    assert read_toml(path, "fix") == {"a": 1, "b": "two\nlines"}
    path.write_bytes(b'{"a": 1,\r\n "b": ["x\\r"]}\r\n')
    with pytest.raises(ConfigError, match=r"x.toml: b\[0\] holds the invisible character U\+000D") as error:
        read_json(path, "fix")
    assert "zero-width" in error.value.hint and "carriage return" in error.value.hint
