"""A figure's 'explained by': its ratio beside the same ratio on builds with one of the write-up's library versions."""

import pandas as pd

from analysis.compute.verdicts.explained_by import EXPLAINED_BY, with_explanations
from analysis.formatting.tables import reproduction_markdown

FIGURE = dict(
    experiment="004",
    scenario="serialize 1000 to string",
    published_variant="Jil",
    benchmark="ser-string-1000-jil",
    reference="ser-string-1000-newtonsoft",
    metric="time",
    isa_level="no-avx512",
    published_ratio=1.9,
    ratio_source="printed",
    published_runtime=".NET 8.0.0",
    note="",
)


def _row(runtime, ratio, lower, upper, verdict, primary=False):
    return {
        **FIGURE,
        "runtime": runtime,
        "primary": primary,
        "measured_ratio": ratio,
        "measured_ratio_lower": lower,
        "measured_ratio_upper": upper,
        "verdict": verdict,
    }


def test_a_switch_whose_interval_is_apart_moves_the_ratio_and_says_which_way():
    table = pd.DataFrame(
        [
            _row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True),
            _row("8.0.0+Newtonsoft.Json=13.0.3", 0.91, 0.90, 0.92, "not reproduced"),
        ]
    )
    out = with_explanations(table)
    assert out.loc[0, EXPLAINED_BY] == ("Newtonsoft.Json 13.0.3: 0.85× → 0.91× (moves it toward the published 1.90×)")
    assert out.loc[1, EXPLAINED_BY] == ""  # only the figure's own row carries it
    assert "Explained by" in reproduction_markdown(out)


def test_overlapping_intervals_are_no_factor_and_the_figure_says_what_was_tried():
    table = pd.DataFrame(
        [
            _row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True),
            _row("8.0.0+Newtonsoft.Json=13.0.3", 0.855, 0.845, 0.865, "not reproduced"),
            _row(
                "9.0.20+Newtonsoft.Json=13.0.3", 1.9, 1.89, 1.91, "reproduced"
            ),  # another runtime's build: not this one's
        ]
    )
    text = with_explanations(table).loc[0, EXPLAINED_BY]
    assert text.startswith("no switched factor moves it (tried: Newtonsoft.Json 13.0.3)")
    assert "not a factor" in text


def test_a_run_without_switched_builds_adds_an_empty_column_and_no_table_column():
    table = pd.DataFrame([_row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True)])
    out = with_explanations(table)
    assert out.loc[0, EXPLAINED_BY] == ""
    assert "Explained by" not in reproduction_markdown(out)


def test_every_figure_not_reproduced_names_the_setup_factors_left():
    from analysis.compute.verdicts.explained_by import with_setup_factors
    from harness.config.experiment.experiments import load_experiments

    exp = load_experiments()["004"]
    hardware = next(iter(exp.hardware.values()))
    setup = pd.DataFrame(
        [
            {"experiment": "004", "hardware": hardware.key, "factor": f, "changeable": c}
            for f, c in [
                ("OS", "no"),
                ("Hybrid cores", "no"),
                ("GC", "yes"),
                ("Library versions", "yes"),
                ("CPU", "same"),
            ]
        ]
    )
    figure = {**FIGURE, "published_hardware": hardware.description}
    table = pd.DataFrame(
        [
            {**_row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True), **figure},
            {**_row("8.0.0", 1.0, 0.99, 1.01, "reproduced", primary=True), **figure, "benchmark": "other"},
        ]
    )
    out = with_setup_factors(with_explanations(table), setup, [exp])
    assert out.loc[0, EXPLAINED_BY] == (
        "no factor switched in this run; changeable here, not switched: GC, Library versions; "
        "differs, not changeable here: OS, Hybrid cores"
    )
    assert out.loc[1, EXPLAINED_BY] == ""  # a reproduced figure needs no explanation
    switched = pd.concat(
        [table.iloc[[0]], pd.DataFrame([{**_row("8.0.0+Newtonsoft.Json=13.0.3", 0.86, 0.85, 0.87, "x"), **figure}])]
    ).reset_index(drop=True)
    text = with_setup_factors(with_explanations(switched), setup, [exp]).loc[0, EXPLAINED_BY]
    assert text.startswith("not explained by any factor changeable here (tried: Newtonsoft.Json 13.0.3)")
    assert "changeable here, not switched: GC;" in text and text.endswith(
        "differs, not changeable here: OS, Hybrid cores"
    )


def test_the_ladder_chart_title_counts_the_figures_a_switch_moved():
    import matplotlib.pyplot as plt

    from analysis.charts.explain_ladder import explain_ladder_chart, ladders
    from analysis.compute.verdicts.explained_by import interval_apart

    other = {**FIGURE, "published_variant": "NetJSON", "benchmark": "ser-string-1000-netjson"}
    table = pd.DataFrame(
        [
            _row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True),
            _row("8.0.0+Newtonsoft.Json=13.0.3", 0.91, 0.90, 0.92, "not reproduced"),
            {**_row("8.0.0", 0.5, 0.49, 0.51, "not reproduced", primary=True), **other},
            {**_row("8.0.0+Newtonsoft.Json=13.0.3", 0.505, 0.495, 0.515, "void: verification failed"), **other},
        ]
    )
    steps = ladders(table)
    assert len(steps) == 2 and [interval_apart(b, s.iloc[0]) for b, s in steps] == [True, False]
    fig = explain_ladder_chart(table, "004: what each switched factor does", "caption")
    assert fig.axes[0].get_title(loc="left").startswith("1 of 2 figures moved by a switched factor")
    labels = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert labels == [
        "Jil · serialize 1000 to string: published",  # the figure named as the claims chart names it
        "  here, 8.0.0",
        "  with Newtonsoft.Json 13.0.3",
        "",
        "NetJSON · serialize 1000 to string: published",
        "  here, 8.0.0",
        "  with Newtonsoft.Json 13.0.3 (void: verification failed)",  # drawn, and marked as not to be read
        "",
    ]
    # each measured dot sits on its own label's row: NetJSON's switched ratio (0.505) on row 6
    rows = {
        round(float(x), 3): y
        for line in fig.axes[0].get_lines()
        for x, y in zip(*line.get_data())
        if len(line.get_xdata()) == 1
    }
    assert rows[0.505] == labels.index("NetJSON · serialize 1000 to string: published") + 2 and rows[0.91] == 2
    plt.close(fig)


def test_a_switched_run_setting_is_named_as_one_and_leaves_the_setup_factors_it_switched():
    from analysis.compute.verdicts.explained_by import SWITCHED, with_setup_factors
    from harness.config.experiment.experiments import load_experiments

    exp = load_experiments()["007"]
    hardware = next(iter(exp.hardware.values()))
    setup = pd.DataFrame(
        [
            {"experiment": "007", "hardware": hardware.key, "factor": f, "changeable": c}
            for f, c in [("OS", "no"), ("Tiered compilation", "yes"), ("Method", "yes")]
        ]
    )
    figure = {**FIGURE, "experiment": "007", "published_hardware": hardware.description}
    table = pd.DataFrame(
        [
            {**_row("10.0.12", 0.85, 0.84, 0.86, "not reproduced", primary=True), **figure},
            {**_row("10.0.12[tiered_compilation=off]", 0.855, 0.845, 0.865, "not reproduced"), **figure},
            {**_row("10.0.120[tiered_compilation=off]", 9.0, 8.9, 9.1, "x"), **figure},  # another runtime's place
        ]
    )
    explained = with_explanations(table)
    assert explained.loc[0, SWITCHED] == "Tiered compilation"
    text = with_setup_factors(explained, setup, [exp]).loc[0, EXPLAINED_BY]
    assert text == (
        "not explained by any factor changeable here (tried: run setting tiered_compilation=off); run setting "
        "tiered_compilation=off: 0.85× → 0.85× (within each other's 99% intervals: not a factor); "
        "changeable here, not switched: Method; differs, not changeable here: OS"
    )


def test_a_void_switched_row_is_named_and_never_compared():
    table = pd.DataFrame(
        [
            _row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True),
            _row("8.0.0+Newtonsoft.Json=13.0.3", 0.5, 0.49, 0.51, "void: verification failed"),
            _row("8.0.0[tiered_compilation=off]", 0.855, 0.845, 0.865, "not reproduced"),
        ]
    )
    text = with_explanations(table).loc[0, EXPLAINED_BY]
    assert text.startswith("no switched factor moves it (tried: run setting tiered_compilation=off)")
    assert text.endswith("Newtonsoft.Json 13.0.3: void (verification failed), not compared")


def test_a_figure_unstable_in_its_own_table_says_so_and_whether_its_own_interval_reaches_the_measured_one():
    from analysis.compute.verdicts.explained_by import UNSTABLE_PUBLISHED, published_evidence, with_setup_factors
    from harness.config.experiment.experiments import load_experiments

    exp = load_experiments()["004"]
    hardware = next(iter(exp.hardware.values()))
    unstable = "Jil's StdDev is 15% of its mean, Jil's minimum is 36% below its median"
    figure = {
        **_row("8.0.0", 0.58, 0.57, 0.59, "not reproduced", primary=True),
        "published_hardware": hardware.description,
        "published_instability": unstable,
        "published_ratio_error": 0.056,
        "published_stability": f"±5.6% (its table's Error, 99.9 %); unstable in its own table: {unstable}",
    }
    out = with_setup_factors(with_explanations(pd.DataFrame([figure])), pd.DataFrame(), [exp])
    text = out.loc[0, EXPLAINED_BY]
    assert f"{UNSTABLE_PUBLISHED}: {unstable}" in text
    assert "the published ratio's own interval (±5.6%, from its table's Error) does not reach the measured" in text
    near = pd.Series({**figure, "measured_ratio": 1.8, "measured_ratio_lower": 1.79, "measured_ratio_upper": 1.81})
    assert published_evidence(near)[-1].endswith("reaches the measured interval")  # 1.9 × (1 − 5.6 %) = 1.79
    steady = pd.Series({**figure, "published_instability": "", "published_ratio_error": None})
    assert published_evidence(steady) == []
    table = reproduction_markdown(out)
    assert "Published table's own evidence" in table and "±5.6% (its table's Error, 99.9 %)" in table
    assert "Published table's own evidence" not in reproduction_markdown(
        with_explanations(pd.DataFrame([_row("8.0.0", 0.85, 0.84, 0.86, "not reproduced", primary=True)]))
    )
