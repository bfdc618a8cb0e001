"""Each lab's catalog (lab/<lab>/catalog.toml): every lab has one, with the test beside it that keeps it in step with
the lab's own registry (lab/<lab>/test_<lab>_catalog.py), every variant an experiment uses is in it, every variant has
a display line, and a broken catalog is an error naming the file."""

from __future__ import annotations

import pathlib
import shutil

import pytest

from harness.config.experiment.experiments import load_experiments
from harness.config.lab.lab_catalog import load_lab_catalog
from harness.config.lab.labs import load_labs
from harness.config.lab.variant_settings import base_of
from harness.model.errors import ConfigError
from tests.conftest import REPO

CATALOG = load_lab_catalog()


def test_every_lab_is_catalogued():
    assert set(CATALOG) == set(load_labs())


def test_every_catalog_has_the_test_that_keeps_it_in_step_beside_it():
    for lab in load_labs().values():
        test = lab.directory / f"test_{lab.name.replace('-', '_')}_catalog.py"
        assert test.is_file(), f"{test} reads the lab's registry and compares it with its catalog.toml"


def test_every_variant_an_experiment_uses_is_catalogued():
    for exp in load_experiments().values():
        for bench in exp.benchmarks.values():
            assert bench.unavailable or base_of(bench.variant) in (CATALOG[bench.lab].variants or ()), (
                exp.id,
                bench.id,
            )


def test_every_catalogued_variant_has_a_display_entry_and_no_other():
    for lab, names in CATALOG.items():
        assert names.variants is not None, lab
        assert set(names.display) == set(names.variants), lab
        for variant, display in names.display.items():
            assert display.settings.strip() and len(display.settings) <= 40, (lab, variant)


@pytest.fixture
def labs(tmp_path: pathlib.Path) -> pathlib.Path:
    """A copy of the C++ lab's lab.toml and catalog.toml in a labs folder of its own."""
    (tmp_path / "cpp").mkdir()
    for name in ("lab.toml", "catalog.toml"):
        shutil.copy(REPO / "lab" / "cpp" / name, tmp_path / "cpp" / name)
    return tmp_path


@pytest.mark.parametrize(
    "text, says",
    [
        ('variants = "rapidjson"\n', "variants, operations and models are lists of names"),
        ('varaints = ["rapidjson"]\n', "unknown key(s) varaints"),
        ("variants = [\n", "is not valid TOML"),
    ],
)
def test_a_broken_catalog_is_an_error_naming_it(labs, text, says):
    (labs / "cpp" / "catalog.toml").write_text(text)
    with pytest.raises(ConfigError, match=r"catalog\.toml") as caught:
        load_lab_catalog(labs)
    assert says in str(caught.value)


def test_a_catalog_outside_a_lab_folder_is_refused(labs):
    (labs / "stray").mkdir()
    (labs / "stray" / "catalog.toml").write_text('variants = ["x"]\n')
    with pytest.raises(ConfigError, match="has no lab.toml beside it"):
        load_lab_catalog(labs)
