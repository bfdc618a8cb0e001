"""Every chart of a report says in its title what its own rows bear out (issue 46, "titles that tell the truth"), and
its caption names only the runtimes those rows were measured on (a .NET-only chart once listed Node.js and GCC)."""

import dataclasses
import functools
import re

import matplotlib.pyplot as plt
import pandas as pd
import pytest
from matplotlib.text import Text

from analysis.charts.style import caption_for
from analysis.compute.load import load_run
from analysis.render.chart_specs import chart_specs
from analysis.render.writer import report_inputs
from harness.model.folder.environment_record import LabEnvironment

FASTER_OR_SLOWER = re.compile(r"^(?P<name>.+?) is (?P<size>[\d.]+(?:×|%)) (?P<way>faster|slower) than (?P<base>.+?) \[")


@pytest.fixture(scope="module")
def charts(fake_run):
    """(spec, its drawn title line, every text it draws) of every chart of the fake run, its environment holding a
    Node.js and a C++ build beside the .NET one that measured every cell."""
    data = load_run(fake_run)
    dotnet = next(iter(data.environment.labs.values()))
    others = {
        "reference-node@24.21.0": dataclasses.replace(dotnet, env={**dotnet.env, "runtime_description": "Node.js v24"}),
        "cpp@gcc-12.2.0": dataclasses.replace(dotnet, env={**dotnet.env, "runtime_description": "GCC 12.2.0"}),
    }
    environment = dataclasses.replace(data.environment, labs={**data.environment.labs, **others})
    out = []
    for spec in chart_specs(report_inputs(data), functools.partial(caption_for, environment, data.run)):
        fig = spec.draw()
        shown = " ".join(text.get_text().replace("\n", " ") for text in fig.findobj(Text))
        out.append((spec, fig.axes[0].get_title(loc="left").replace("\n", " "), shown))
        plt.close(fig)
    assert isinstance(dotnet, LabEnvironment) and out
    return out


def test_every_caption_names_only_the_runtimes_of_its_own_rows(charts):
    for spec, _, text in charts:
        assert ".NET 10.0.12" in text and "Node.js" not in text and "GCC" not in text, spec.name


def test_a_ratio_bar_title_claims_a_direction_only_where_its_best_benchmark_s_interval_is_clear_of_1(charts):
    checked = 0
    for spec, title, _ in charts:
        if not spec.name.endswith("-ratio-bars"):
            continue
        found = FASTER_OR_SLOWER.match(title)
        if not found:
            assert "undecided" in title or "no difference" in title or "no ratio" in title, (spec.name, title)
            continue
        data = spec.data[~spec.data["comparison_void"].fillna(False).astype(bool)]  # unverified: never the finding
        rows = data[data["ratio"].notna() & (data["benchmark"] != data["baseline"])]
        level = re.search(r"\((\S+)\)$", title)
        rows = rows[rows["setting"] == level.group(1)] if level else rows
        best = rows.sort_values("ratio").iloc[0]
        if found["way"] == "faster":
            assert best["ratio_ci99_upper"] < 1, (spec.name, title)
            size = 1 / best["ratio"]
        else:
            assert best["ratio_ci99_lower"] > 1, (spec.name, title)
            size = best["ratio"]
        stated = found["size"]
        value = float(stated[:-1]) / 100 + 1 if stated.endswith("%") else float(stated[:-1])
        assert value == pytest.approx(size, rel=0.05, abs=0.01), (spec.name, title, size)
        checked += 1
    assert checked, "the fake run has groups with a clear winner (stj-default 2x faster than Newtonsoft)"


def test_a_published_vs_measured_title_counts_the_verdicts_it_draws(charts):
    for spec, title, _ in charts:
        if not spec.name.endswith("-published-vs-measured"):
            continue
        counted = re.match(r"^(\d+) of (\d+) published ratios reproduced", title)
        assert counted, title
        verdicts = spec.data["verdict"].astype(str)
        assert int(counted[1]) == int((verdicts == "reproduced").sum()) and int(counted[2]) == len(verdicts), title


def test_a_chart_without_runtimes_in_its_rows_names_every_runtime_of_the_run(fake_run):
    data = load_run(fake_run)
    assert ".NET 10.0.12" in caption_for(data.environment, data.run, pd.DataFrame({"x": [1]}))
