import dataclasses
import hashlib
import json
import pathlib
import shutil
import subprocess

import pytest

from harness.config.data.datasets import load_manifest
from harness.model.defaults import DATASETS_DIR
from harness.model.errors import ConfigError, DatasetError


def test_every_shipped_dataset_matches_its_manifest():
    manifest = load_manifest()
    for name, dataset in manifest.datasets.items():
        if (dataset.committed or manifest.present(name)) and not dataset.local:  # generated: once built; yours: no
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

    from harness.config.data.datasets import regenerate
    from harness.config.lab.labs import load_labs

    manifest = load_manifest(copied_datasets)
    generated = [d for d in manifest.datasets.values() if d.generator and "lab" in d.generator]
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


GENERATOR = """import argparse, pathlib
p = argparse.ArgumentParser(); p.add_argument("--seed", type=int); p.add_argument("--count", type=int)
p.add_argument("--out", type=pathlib.Path); a = p.parse_args()
a.out.write_text("[" + ",".join(str(a.seed + i) for i in range(a.count)) + "]")
"""


def _generated(copied, data=b"[7,8,9]", script="generators/numbers.py"):
    (copied / "generators").mkdir(exist_ok=True)
    (copied / "generators" / "numbers.py").write_text(GENERATOR)
    manifest = json.loads((copied / "manifest.json").read_text())
    manifest["datasets"].append(
        {
            "name": "numbers",
            "path": "generated/numbers.json",
            "bytes": len(data),
            "sha256": hashlib.sha256(data).hexdigest(),
            "model": None,
            "provenance": "a test",
            "licence": "none",
            "generator": {"script": script, "seed": 7, "args": ["--count", 3]},
        }
    )
    (copied / "manifest.json").write_text(json.dumps(manifest))
    return load_manifest(copied)


def test_a_generated_dataset_is_built_by_its_script_when_needed_and_checked_like_any_other(copied_datasets):
    manifest = _generated(copied_datasets)
    dataset = manifest.find("numbers")
    assert not dataset.committed and not manifest.present("numbers")
    with pytest.raises(DatasetError, match="generated and not built here yet") as error:
        manifest.check("numbers")
    assert "just datasets" in error.value.hint
    said = []
    assert manifest.ensure("numbers", said.append) == dataset
    assert (copied_datasets / "generated" / "numbers.json").read_bytes() == b"[7,8,9]"
    assert said[0].startswith("dataset numbers: generating") and "matches the manifest" in said[1]
    assert not list((copied_datasets / "generated").glob(".*partial")), "nothing half-written left"
    manifest.ensure("numbers", said.append)
    assert len(said) == 2, "built once: a present file is only checked"


def test_a_generator_that_writes_other_bytes_is_refused_and_its_output_kept_aside(copied_datasets):
    manifest = _generated(copied_datasets, data=b"[1,2,3]")
    with pytest.raises(DatasetError, match="its generator wrote 7 bytes") as error:
        manifest.ensure("numbers")
    assert "generator or its interpreter changed" in error.value.hint
    assert not manifest.present("numbers") and (copied_datasets / "generated" / "numbers.json.rejected").is_file()


def test_a_generated_entry_needs_a_script_generator_in_a_language_the_lab_ships(copied_datasets):
    with pytest.raises(ConfigError, match="not a .py/.js/.sh file"):
        _generated(copied_datasets, script="generators/numbers.rb")
    manifest = json.loads((copied_datasets / "manifest.json").read_text())
    manifest["datasets"][-1]["generator"] = None
    (copied_datasets / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(ConfigError, match="under generated/ .* names no generator script"):
        load_manifest(copied_datasets)


def test_the_generated_folder_is_the_one_rule_that_keeps_files_out_of_git():
    ignored = subprocess.run(
        ["git", "check-ignore", "-q", "datasets/generated/any.json"], cwd=DATASETS_DIR.parent, capture_output=True
    )
    assert ignored.returncode == 0
    assert all(d.committed == (not d.path.startswith("generated/")) for d in load_manifest().datasets.values())
