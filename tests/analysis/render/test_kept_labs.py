"""A run's report names its variants with the words the run was made with: the catalogs it kept (labs/), not lab/."""

import shutil

import pandas as pd

from analysis.formatting.names import display_names_from, library_name, settings_line
from analysis.render.writer import run_labs_dir
from harness.model.defaults import LABS_DIR

ROW = pd.Series({"lab": "dotnet", "variant": "stj-default"})


def _kept(tmp_path, line: str):
    run = tmp_path / "run"
    lab = run / "labs" / "dotnet"
    lab.mkdir(parents=True)
    shutil.copy(LABS_DIR / "dotnet" / "lab.toml", lab / "lab.toml")
    text = (LABS_DIR / "dotnet" / "catalog.toml").read_text()
    assert 'stj-default = "default options"\n' in text
    (lab / "catalog.toml").write_text(text.replace('stj-default = "default options"', f'stj-default = "{line}"'))
    return run


def test_a_run_that_kept_its_labs_is_named_from_them_and_lab_is_used_again_after(tmp_path):
    run = _kept(tmp_path, "the run's own words")
    assert run_labs_dir(run) == run / "labs"
    with display_names_from(run_labs_dir(run)):
        assert settings_line(ROW) == "the run's own words"
    assert settings_line(ROW) == "default options"


def test_a_run_made_before_runs_kept_their_labs_is_named_from_lab(tmp_path):
    (tmp_path / "old-run").mkdir()
    assert run_labs_dir(tmp_path / "old-run") == LABS_DIR


def test_a_variant_with_settings_is_named_by_its_base_variant_and_the_settings_it_was_given():
    row = pd.Series({"lab": "dotnet", "variant": "stj-sourcegen-camel+indented=true", "library": "System.Text.Json"})
    assert settings_line(ROW.replace("stj-default", "stj-default+indented=true+naming=camelCase")) == (
        "default options; indented=true, naming=camelCase"
    )
    assert library_name(row) == "System.Text.Json (source generated)"
