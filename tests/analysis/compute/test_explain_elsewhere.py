"""A default run's figures that do not reproduce borrow what the newest explain run of the same host and commit found;
an explain run of another host or commit, or a sibling folder that cannot be read, lends nothing."""

import json
import shutil

import pandas as pd
import pytest

from analysis.compute.load import load_run
from analysis.compute.verdicts.explain_elsewhere import KEY, latest_explain_run
from analysis.compute.verdicts.explained_by import EXPLAINED_BY, SWITCHED
from analysis.render.writer import report_inputs, write_report
from harness.model.judging import NOT_REPRODUCED, SAME_DIRECTION

EXPLAIN_ID = "2099-01-01T00-00-00Z"
MOVED = "Newtonsoft.Json 13.0.3: 2.00× → 1.10× (moves it toward the published 1.02×)"


def _set(folder, name, **values):
    path = folder / name
    data = json.loads(path.read_text())
    data.update(values)
    path.write_text(json.dumps(data))


@pytest.fixture
def runs(fake_run, tmp_path):
    """(the default run, an explain run beside it of the same host and commit, the figure it explains)."""
    results = tmp_path / "results"
    default = results / fake_run.name
    shutil.copytree(fake_run, default, ignore=shutil.ignore_patterns("report"))
    _set(default, "environment.json", git_commit="abc1234", hostname="lab-host")
    verdicts = report_inputs(load_run(default)).verdicts
    open_figures = verdicts[
        verdicts["primary"].astype(bool)
        & (verdicts["metric"] == "time")
        & verdicts["verdict"].isin([NOT_REPRODUCED, SAME_DIRECTION])
    ]
    figure = open_figures.iloc[0]
    explain = results / EXPLAIN_ID
    shutil.copytree(default, explain)
    _set(explain, "run.json", profile="explain")
    tables = explain / "report" / "tables"
    tables.mkdir(parents=True)
    row = {column: figure[column] for column in KEY} | {EXPLAINED_BY: MOVED, SWITCHED: "Library versions"}
    pd.DataFrame([row]).to_csv(tables / "reproduction.csv", index=False)
    return default, explain, figure


def _entry(folder, figure):
    verdicts = report_inputs(load_run(folder)).verdicts
    same = (verdicts[KEY].astype(str) == pd.Series({k: str(figure[k]) for k in KEY})).all(axis=1)
    return str(verdicts.loc[same, EXPLAINED_BY].iloc[0])


def test_a_default_run_borrows_the_explain_run_of_its_host_and_commit_naming_it(runs):
    default, _, figure = runs
    entry = _entry(default, figure)
    assert entry.startswith(f"in explain run {EXPLAIN_ID} (this host and commit): {MOVED}")
    assert "no factor switched in this run" not in entry
    changeable = entry.split("changeable here, not switched:", 1)[-1].split(";", 1)[0]
    assert "Library versions" not in changeable  # switched in the explain run


@pytest.mark.parametrize("change", [{"git_commit": "def5678"}, {"hostname": "another-host"}, {"git_commit": None}])
def test_an_explain_run_of_another_host_or_commit_lends_nothing(runs, change):
    default, explain, figure = runs
    _set(explain, "environment.json", **change)
    assert latest_explain_run(default, load_run(default).environment, "default") is None
    assert _entry(default, figure).startswith("no factor switched in this run")


def test_an_explain_run_does_not_borrow_and_a_broken_sibling_is_passed_over(runs):
    default, explain, figure = runs
    env = load_run(default).environment
    assert latest_explain_run(explain, env, "explain") is None
    newer = default.parent / "2100-01-01T00-00-00Z"
    newer.mkdir()
    (newer / "run.json").write_text("{not json")
    (default.parent / "2101-01-01T00-00-00Z").mkdir()  # an empty folder
    found = latest_explain_run(default, env, "default")
    assert found is not None and found.run_id == EXPLAIN_ID


def test_a_hostile_explain_table_is_bounded_and_escaped_in_the_report(runs):
    default, explain, figure = runs
    path = explain / "report" / "tables" / "reproduction.csv"
    table = pd.read_csv(path, dtype=str, keep_default_na=False)
    table[EXPLAINED_BY] = "<script>alert(1)</script>\x1b[31m\u202e" + "x" * 10_000
    table.to_csv(path, index=False)
    entry = _entry(default, figure)
    assert "\x1b" not in entry and "\u202e" not in entry and len(entry) < 6000
    html = (write_report(default).parent / "report.html").read_text()
    assert "<script>alert(1)" not in html


def test_a_reproduction_table_of_another_shape_lends_nothing(runs):
    default, explain, figure = runs
    (explain / "report" / "tables" / "reproduction.csv").write_text("a,b\n1,2\n")
    assert latest_explain_run(default, load_run(default).environment, "default") is None
