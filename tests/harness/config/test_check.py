"""`harness check` on the shipped files, and the experiment schema kept in step with the loader, the files and the
docs."""

from __future__ import annotations

import dataclasses
import json

import jsonschema
import pytest

from harness.cli import main
from harness.config.data.datasets import load_manifest
from harness.config.experiment.experiment_schema import SCHEMA_DIRECTIVE
from harness.config.experiment.profiles import load_profiles
from harness.model.defaults import EXPERIMENT_SCHEMA_FILE
from harness.model.errors import ConfigError
from harness.model.experiment import Benchmark, Claim, Experiment, Group, Hardware
from tests.conftest import REPO

SCHEMA = json.loads(EXPERIMENT_SCHEMA_FILE.read_text())


def test_every_shipped_experiment_profile_and_dataset_passes_the_check(capsys):
    assert main(["check"]) == 0
    out = capsys.readouterr().out
    for name in load_profiles():
        assert f"ok  profile {name} " in out
    assert "ok  experiment 004  108 benchmarks, 72 claims" in out and "ok  datasets" in out
    assert "nothing was built or measured" in out.splitlines()[-1]


def test_every_experiment_file_names_the_schema_on_its_first_line_for_editors():
    for path in sorted((REPO / "experiments").glob("[0-9]*.toml")):
        assert path.read_text().splitlines()[0] == SCHEMA_DIRECTIVE, path.name
    assert (REPO / "experiments" / SCHEMA_DIRECTIVE.split("./")[1]).is_file()


def test_the_schema_is_valid_draft_7_and_describes_every_key():
    jsonschema.Draft7Validator.check_schema(SCHEMA)
    definitions = SCHEMA["definitions"]
    for table in ("group", "benchmark", "hardware", "claim"):
        for key, spec in definitions[table]["properties"].items():
            assert spec.get("description"), f"{table}.{key}"
    for key, spec in SCHEMA["properties"].items():
        assert spec.get("description"), key


def test_the_schema_has_exactly_the_keys_the_loader_reads():
    fields = lambda cls, *leave_out: {f.name for f in dataclasses.fields(cls)} - set(leave_out)  # noqa: E731
    definitions = SCHEMA["definitions"]
    assert set(definitions["claim"]["properties"]) == fields(Claim)
    # a benchmark's settings are read into its variant's name (harness/config/lab/variant_settings.py)
    assert set(definitions["benchmark"]["properties"]) == fields(Benchmark) | {"settings"}
    assert set(definitions["group"]["properties"]) == fields(Group)
    assert set(definitions["hardware"]["properties"]) == fields(Hardware, "key")  # the key is the table's name
    top = fields(Experiment, "path", "todos", "published_versions", "runtime_sweep", "allocated_tolerance_bytes") | {
        "published_versions",
        "runtime_sweep",
        "allocated_tolerance_bytes",
        "schema_version",
        "lab",
        "operation",
        "claim_defaults",  # expanded into claims by the loader (harness/config/experiment/claim_tables.py)
        "claim_tables",
    }
    assert set(SCHEMA["properties"]) == top


def test_the_reference_documentation_names_every_key_of_the_schema():
    doc = (REPO / "docs" / "experiments.md").read_text()
    keys = set(SCHEMA["properties"]) | {
        k for table in SCHEMA["definitions"].values() for k in table.get("properties", {})
    }
    missing = sorted(k for k in keys if f"`{k}`" not in doc)
    assert not missing, f"docs/experiments.md does not describe: {missing}"
    assert "docs/experiments.md" in (REPO / "README.md").read_text()
    assert "experiments.md" in (REPO / "docs" / "extending.md").read_text()


def test_malformed_profiles_and_manifest_are_errors_not_tracebacks(tmp_path):
    (tmp_path / "profiles.toml").write_text("[profiles.default\n")
    with pytest.raises(ConfigError, match="profiles.toml is not valid TOML"):
        load_profiles(tmp_path / "profiles.toml")
    (tmp_path / "manifest.json").write_text('{"schema_version": 1, "datasets": [{"name": "x"}]}')
    with pytest.raises(ConfigError, match="a dataset entry is malformed"):
        load_manifest(tmp_path)
    (tmp_path / "manifest.json").write_text('{"schema_version": 1,')
    with pytest.raises(ConfigError, match="is not valid JSON"):
        load_manifest(tmp_path)
