"""The local bases are containers/local-bases.toml (those no one lab owns) and each lab's own,
lab/<lab>/local-bases.toml, merged by harness/containers/bases.py: each lab's file holds the bases its lab.toml
[container] local_bases names, the shared file none of them, and a base named twice is refused naming both files."""

from __future__ import annotations

import fnmatch
import re

import pytest

from harness.config.lab.labs import load_labs
from harness.containers.bases import LOCAL_BASES_FILE, _read_bases, load_local_bases, local_bases_files
from harness.model.errors import ConfigError

#: The bases of containers/local-bases.toml when it held them all (before each lab's moved into its folder).
BASES_OF_THE_ONE_FILE = {
    "jsonlab-local/runtime-deps:bookworm-amd64",
    "jsonlab-local/dotnet-sdk:bookworm-amd64",
    "jsonlab-local/runtime-deps:bookworm-arm64",
    "jsonlab-local/node-deps:bookworm-amd64",
    "jsonlab-local/cpp-build:bookworm-amd64",
    "jsonlab-local/fresh-machine:bookworm-amd64",
}

BASE = '[bases."{name}"]\nsuite = "bookworm"\ninclude = ["tzdata"]\n'


def _named_by(lab) -> list[str]:
    """The bases a lab's lab.toml names, as patterns over its architectures ({target_arch}, {build_arch})."""
    return [re.sub(r"\{[a-z_]+\}", "*", v) for v in (lab.container.local_bases.values() if lab.container else ())]


def test_the_merged_bases_are_the_ones_of_the_one_file_shared_first_then_each_labs_by_name():
    merged = load_local_bases()
    assert BASES_OF_THE_ONE_FILE <= set(merged)
    files = local_bases_files()
    assert files[0] == LOCAL_BASES_FILE and files[1:] == sorted(files[1:])
    assert list(merged) == [name for file in files for name in _read_bases(file)]


def test_each_lab_holds_the_bases_its_lab_toml_names_and_the_shared_file_none_of_them():
    labs = load_labs()
    shared = set(_read_bases(LOCAL_BASES_FILE))
    assert "jsonlab-local/fresh-machine:bookworm-amd64" in shared
    for lab in labs.values():
        patterns = _named_by(lab)
        own = set(_read_bases(path)) if (path := lab.directory / "local-bases.toml").is_file() else set()
        assert all(any(fnmatch.fnmatchcase(base, p) for p in patterns) for base in own), lab.name
        for pattern in patterns:
            assert fnmatch.filter(own, pattern), f"{lab.name}: {pattern} is not in lab/{lab.name}/local-bases.toml"
            assert not fnmatch.filter(shared, pattern), f"{pattern} serves lab {lab.name}: it belongs in its folder"


def _lab(labs, name, bases_text):
    folder = labs / name
    folder.mkdir(parents=True)
    (folder / "lab.toml").write_text(f'name = "{name}"\n')
    (folder / "local-bases.toml").write_text(bases_text)


def test_a_base_named_twice_is_refused_naming_both_files(tmp_path):
    labs = tmp_path / "lab"
    _lab(labs, "tiny", BASE.format(name="jsonlab-local/fresh-machine:bookworm-amd64"))
    with pytest.raises(ConfigError) as error:
        load_local_bases(labs_dir=labs)
    assert "'jsonlab-local/fresh-machine:bookworm-amd64' is in both containers/local-bases.toml and " in str(
        error.value
    )
    assert str(labs / "tiny" / "local-bases.toml") in str(error.value)
    _lab(tmp_path / "two", "a", BASE.format(name="x/one:1"))
    _lab(tmp_path / "two", "b", BASE.format(name="x/one:1"))
    with pytest.raises(ConfigError, match=r"'x/one:1' is in both \S+/a/local-bases.toml and \S+/b/local-bases.toml"):
        load_local_bases(labs_dir=tmp_path / "two")


def test_a_labs_bases_are_merged_and_a_malformed_or_stray_file_is_refused(tmp_path):
    labs = tmp_path / "lab"
    _lab(labs, "tiny", BASE.format(name="x/tiny:1"))
    assert list(load_local_bases(labs_dir=labs))[-1] == "x/tiny:1"
    (labs / "tiny" / "local-bases.toml").write_text('[bases."x/tiny:1"]\ninclude = []\n')
    with pytest.raises(ConfigError, match=r"tiny/local-bases.toml is malformed: KeyError\('suite'\)"):
        load_local_bases(labs_dir=labs)
    (labs / "stray").mkdir()
    (labs / "stray" / "local-bases.toml").write_text(BASE.format(name="x/stray:1"))
    with pytest.raises(ConfigError, match="stray/local-bases.toml has no lab.toml beside it"):
        load_local_bases(labs_dir=labs)
