"""Where a lab's library versions come from (lab.toml [libraries]): one reader per format, each over a small lock file,
an unknown format or key refused when lab.toml is read, a missing declared lock file refused at build."""

import json
import pathlib

import pytest

from harness.config.lab.lab_libraries import READERS, LibrariesSpec, debian_versions, library_versions, parse_libraries
from harness.config.lab.labs import load_lab, load_labs
from harness.model.errors import BuildError, ConfigError

NUGET_LOCK = {
    "version": 1,
    "dependencies": {
        "net8.0": {
            "Newtonsoft.Json": {"type": "Direct", "requested": "[13.0.4, )", "resolved": "13.0.4"},
            "Bogus": {"type": "Direct", "requested": "[34.0.2, )", "resolved": "34.0.2"},
            "System.Memory": {"type": "Transitive", "resolved": "4.5.5"},
            "JsonLab.Shared": {"type": "Project"},
        },
        ".NETCoreApp,Version=v3.1": {
            "Jil": {"type": "Direct", "requested": "[3.0.0-alpha2, )", "resolved": "3.0.0-alpha2"}
        },
    },
}

NPM_LOCK = {
    "lockfileVersion": 3,
    "packages": {
        "": {"dependencies": {"mitata": "1.0.34", "fast-json-stringify": "7.3.6"}, "devDependencies": {"x": "1"}},
        "node_modules/mitata": {"version": "1.0.34"},
        "node_modules/fast-json-stringify": {"version": "7.3.6"},
        "node_modules/ajv": {"version": "8.17.1"},
        "node_modules/x": {"version": "1.0.0"},
    },
}


def _write(folder: pathlib.Path, name: str, data: dict) -> pathlib.Path:
    (folder / name).parent.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(data))
    return folder


def test_every_format_has_a_reader():
    assert set(READERS) == {"nuget", "npm", "debian-packages", "none"}


def test_nuget_lists_the_direct_packages_of_the_target(tmp_path):
    folder = _write(tmp_path, "src/packages.lock.json", NUGET_LOCK)
    spec = LibrariesSpec("nuget", "src/packages.lock.json", "net8.0")
    assert library_versions("x", folder, spec) == "Bogus=34.0.2,Newtonsoft.Json=13.0.4"
    legacy = LibrariesSpec("nuget", "src/packages.lock.json", "netcoreapp3.1")
    assert library_versions("x", folder, legacy) == "Jil=3.0.0-alpha2", "3.1's target has its long name"
    with pytest.raises(BuildError, match="has no target 'net9.0'"):
        library_versions("x", folder, LibrariesSpec("nuget", "src/packages.lock.json", "net9.0"))


def test_npm_lists_the_direct_dependencies_at_their_locked_versions(tmp_path):
    folder = _write(tmp_path, "package-lock.json", NPM_LOCK)
    assert library_versions("x", folder, LibrariesSpec("npm", "package-lock.json")) == (
        "fast-json-stringify=7.3.6,mitata=1.0.34"
    )


def test_debian_packages_take_their_versions_from_the_images_list(tmp_path):
    spec = LibrariesSpec("debian-packages", packages=("rapidjson-dev", "libsimdjson-dev"))
    assert library_versions("x", tmp_path, spec) == "libsimdjson-dev=?,rapidjson-dev=?", "before the build"
    installed = {"libsimdjson-dev": "3.1.5-1", "rapidjson-dev": "1.1.0+dfsg2-7.1", "libc6": "2.36-9"}
    assert debian_versions("x", tmp_path, spec, installed) == "libsimdjson-dev=3.1.5-1,rapidjson-dev=1.1.0+dfsg2-7.1"
    assert library_versions("x", tmp_path, LibrariesSpec("none")) == ""


@pytest.mark.parametrize("fmt", ["nuget", "npm"])
def test_a_declared_lock_file_that_is_missing_is_a_build_error_not_an_empty_label(tmp_path, fmt):
    with pytest.raises(BuildError, match=r"lab mine: the lock file .*missing\.lock\.json, is missing"):
        library_versions("mine", tmp_path, LibrariesSpec(fmt, "missing.lock.json", "net8.0"))


def test_the_labs_declare_their_formats_filled_in_per_runtime():
    labs = load_labs()
    assert labs["dotnet"].for_runtime("10.0.12-aot").libraries == LibrariesSpec(
        "nuget", "src/packages.aot.lock.json", "net10.0"
    )
    assert labs["reference-node"].for_runtime().libraries == LibrariesSpec("npm", "package-lock.json")
    cpp = labs["cpp"].libraries
    assert cpp is not None and cpp.format == "debian-packages" and "libsimdjson-dev" in cpp.packages
    servicestack = load_labs(accepted=frozenset({"ServiceStack.Text"}))["dotnet"].for_runtime("9.0.20")
    assert servicestack.libraries.lock_file == "src/packages.servicestack.lock.json"
    assert "ServiceStack.Text=10.1.0" in library_versions("dotnet", servicestack.directory, servicestack.libraries)


LAB = """\
name = "mine"
language = "X"
raw_format = "samples"
command = ["x"]
"""
CONTAINER = '\n[container]\ndockerfile = "Dockerfile"\n'


def _load(tmp_path, text):
    (tmp_path / "lab.toml").write_text(LAB + text)
    return load_lab(tmp_path)


def test_an_unknown_format_is_refused_naming_the_lab_the_file_and_the_key(tmp_path):
    with pytest.raises(ConfigError, match=r"lab mine: .*lab\.toml \[libraries\] format = 'maven'") as e:
        _load(tmp_path, CONTAINER + '[libraries]\nformat = "maven"\n')
    assert "'nuget', 'npm', 'debian-packages', 'none'" in e.value.hint


@pytest.mark.parametrize(
    "table, problem",
    [
        ('format = "npm"\n', "key 'lock_file' is missing"),
        ('format = "nuget"\nlock_file = "a.json"\n', "key 'target' is missing"),
        ('format = "npm"\nlock_file = "p.json"\ntarget = "x"\n', "key 'target' is not one format 'npm' takes"),
        ('format = "debian-packages"\npackages = "libfoo-dev"\n', "key 'packages' is missing or malformed"),
        ('format = "none"\npackages = ["a"]\n', "key 'packages' is not one format 'none' takes"),
    ],
)
def test_a_misspelt_or_missing_key_is_refused(tmp_path, table, problem):
    with pytest.raises(ConfigError, match=rf"lab mine: .*lab\.toml \[libraries\] {problem}"):
        _load(tmp_path, CONTAINER + "[libraries]\n" + table)


def test_a_lab_with_an_image_must_say_where_its_libraries_come_from(tmp_path):
    with pytest.raises(ConfigError, match=r"has a \[container\] table but no \[libraries\]"):
        _load(tmp_path, CONTAINER)
    assert _load(tmp_path, "").libraries is None, "a native-only lab has no image to label"
    assert _load(tmp_path, CONTAINER + '[libraries]\nformat = "none"\n').libraries == LibrariesSpec("none")
    assert parse_libraries({"libraries": {"format": "none"}}, tmp_path / "lab.toml", False) == LibrariesSpec("none")
