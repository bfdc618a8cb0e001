"""Claims written as tables (harness/config/experiment/claim_tables.py): every write-up's claims, rewritten as one table
per scenario by the importer's writer (harness/bdn/claim_table_text.py), load as exactly the claims written out; a
broken table is an error naming the table and row."""

from __future__ import annotations

import pytest
import tomllib

from harness.bdn.claim_table_text import claim_tables_text
from harness.config.experiment.experiments import load_experiments
from harness.model.defaults import EXPERIMENTS_DIR
from harness.model.errors import ConfigError
from tests.harness.config.test_experiment_mutations import dumps

WRITE_UPS = sorted(EXPERIMENTS_DIR.glob("00[0-7]-*.toml"))


def _as_tables(text: str, **defaults) -> str:
    document = tomllib.loads(text)
    claims = document.pop("claims", [])
    head = dumps(document)
    if defaults:
        head += "\n[claim_defaults]\n" + "".join(f'{k} = "{v}"\n' for k, v in defaults.items())
    return head + "\n" + "\n".join(claim_tables_text([("written", claim) for claim in claims]))


@pytest.mark.parametrize("path", WRITE_UPS, ids=lambda p: p.stem)
def test_every_write_ups_claims_as_tables_load_as_the_claims_written_out(tmp_path, path):
    (tmp_path / path.name).write_text(_as_tables(path.read_text()))
    written = load_experiments(EXPERIMENTS_DIR)[path.name[:3]]
    tabled = load_experiments(tmp_path)[path.name[:3]]
    figure = lambda claim: (claim.scenario, claim.published_variant)  # noqa: E731 (a table holds one kind of claim)
    assert sorted(tabled.claims, key=figure) == sorted(written.claims, key=figure)
    if len(written.claims) > 3:  # a table says each shared field once
        assert len(_as_tables(path.read_text()).splitlines()) < len(path.read_text().splitlines())


BASE = (EXPERIMENTS_DIR / "001-stj-vs-newtonsoft-employees.toml").read_text()


def _load(tmp_path, tables: str) -> None:
    document = tomllib.loads(BASE)
    document.pop("claims")
    (tmp_path / "001-x.toml").write_text(dumps(document) + tables)
    load_experiments(tmp_path)


@pytest.mark.parametrize(
    "table, says",
    [
        (
            'columns = ["published_variant", "mean_ns"]\nrows = [["a"]]',
            r"claim_tables\[0\]\.rows\[0\] has 1 values for 2",
        ),
        ('scenario = "s"\ncolumns = ["scenario"]\nrows = [["t"]]', "both a column and set for the table"),
        (
            'scenario = "s"\ncolumns = ["published_variant", "mean_nanos"]\nrows = [["a", 1.0]]',
            "unknown key 'mean_nanos'",
        ),
        ('columns = ["published_variant"]\nrows = [["a"]]', "has no scenario, and none can be made"),
        ("rows = []", "missing key 'columns'"),
    ],
)
def test_a_broken_claim_table_is_an_error_naming_it(tmp_path, table, says):
    with pytest.raises(ConfigError, match=says):
        _load(tmp_path, f"\n[[claim_tables]]\n{table}\n")


def test_a_table_without_a_scenario_gets_its_groups_title_on_its_runtime_and_defaults_fill_every_claim(tmp_path):
    document = tomllib.loads(BASE)
    claims = document.pop("claims")
    bench = claims[0]["benchmark"]
    hardware = claims[0]["hardware"]
    tables = (
        f'\n[claim_defaults]\nhardware = "{hardware}"\npublished_baseline = "none"\n'
        f'\n[[claim_tables]]\ncolumns = ["published_variant", "benchmark", "derived_baseline", "mean_ns"]\n'
        f'rows = [["Mine", "{bench}", "{bench}", 10.0]]\n'
    )
    (tmp_path / "001-x.toml").write_text(dumps(document) + tables)
    (claim,) = load_experiments(tmp_path)["001"].claims
    group = next(
        g for g in document["groups"] if g["id"] == next(b for b in document["benchmarks"] if b["id"] == bench)["group"]
    )
    assert claim.scenario == f"{group['title']} on {document['hardware'][hardware]['runtime']}"
    assert claim.hardware == hardware and claim.published_baseline == "none" and claim.mean_ns == 10.0
