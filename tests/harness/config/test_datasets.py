import dataclasses
import json
import pathlib
import shutil

import pytest

from harness.config.datasets import load_manifest
from harness.config.defaults import DATASETS_DIR
from harness.model.errors import DatasetError


def test_every_shipped_dataset_matches_its_manifest():
    manifest = load_manifest()
    for name in manifest.datasets:
        assert manifest.check(name).sha256


def test_the_regenerated_employee_file_is_byte_identical_to_the_original():
    import importlib.util

    spec = importlib.util.spec_from_file_location("gen", DATASETS_DIR / "generators" / "employee_data.py")
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.employee_data() == (DATASETS_DIR / "writeups" / "employee-data.json").read_bytes()


@pytest.fixture
def copied_datasets(tmp_path):
    target = tmp_path / "datasets"
    (target / "writeups").mkdir(parents=True)
    shutil.copy(DATASETS_DIR / "manifest.json", target)
    for name in ("myclass-camel.json", "myclass-pascal.json"):
        shutil.copy(DATASETS_DIR / "writeups" / name, target / "writeups")
    return target


def test_a_tampered_dataset_is_refused_naming_the_file_and_the_fix(copied_datasets):
    (copied_datasets / "writeups" / "myclass-camel.json").write_text('{"myString":"abd"}')
    with pytest.raises(DatasetError) as error:
        load_manifest(copied_datasets).check("myclass-camel")
    assert "myclass-camel" in str(error.value) and "does not match the manifest" in str(error.value)
    assert "git checkout -- datasets/" in error.value.hint


def test_a_missing_dataset_file_is_refused(copied_datasets):
    with pytest.raises(DatasetError, match="'employee-data' is missing"):
        load_manifest(copied_datasets).check("employee-data")


def test_an_unknown_manifest_schema_is_refused(copied_datasets):
    data = json.loads((copied_datasets / "manifest.json").read_text())
    (copied_datasets / "manifest.json").write_text(json.dumps({**data, "schema_version": 99}))
    with pytest.raises(Exception, match="schema_version 99"):
        load_manifest(copied_datasets)


def test_regeneration_calls_the_lab_generator_and_rejects_bytes_that_differ(copied_datasets, tmp_path):
    import subprocess
    from harness.config.datasets import regenerate
    from harness.config.labs import load_labs

    manifest = load_manifest(copied_datasets)
    generated = [d for d in manifest.datasets.values() if d.generator]
    assert {d.generator["name"] for d in generated} >= {
        "simple-models",
        "persons",
        "person-lines",
        "escaping-case",
        "dotnet-performance",
    }
    calls = []

    def fake_lab(argv, cwd, capture_output, text):
        calls.append(argv)
        out = argv[argv.index("--out") + 1]
        source = DATASETS_DIR / pathlib.Path(out).relative_to(copied_datasets)
        data = source.read_bytes()
        pathlib.Path(out).write_bytes(data + b" " if "persons-10000" in out else data)
        return subprocess.CompletedProcess(argv, 0, "", "")

    labs = load_labs()
    labs = {name: dataclasses.replace(lab, requires=()) for name, lab in labs.items()}
    with pytest.raises(DatasetError, match="persons-10000"):
        regenerate(manifest, labs, run=fake_lab)
    assert calls[0][-8:-2] == ["--generator", "simple-models", "--count", "1", "--seed", "4"]
