"""Charts a blogger can paste as they are: names not ids, sorted fastest first, the finding in the title as far as its
interval allows, no overlapping text, no text across an error bar, nothing naming the machine that drew them."""

from __future__ import annotations

import matplotlib.pyplot as plt
import pandas as pd
import pytest

from analysis.charts.checks import bar_order, local_names, overlapping_texts, texts_on_error_bars
from analysis.charts.cold_start import cold_start_chart
from analysis.charts.ratio_bars import ratio_bar_chart, speed_order
from analysis.charts.takeaway import fastest_takeaway, time_ratio_takeaway
from analysis.charts.throughput import throughput_chart
from analysis.formatting.names import display_labels


def _groups(cells: pd.DataFrame):
    for (_, _), rows in cells.groupby(["experiment", "group"], sort=False):
        yield rows


def _clean(fig) -> None:
    assert overlapping_texts(fig) == []
    assert texts_on_error_bars(fig) == []
    for text in fig.findobj(plt.Text):
        assert local_names(text.get_text()) == [], text.get_text()


def test_ratio_bars_name_libraries_sort_fastest_first_and_overlap_nothing(fake_cells):
    for rows in _groups(fake_cells):
        fig = ratio_bar_chart(rows, "group title", ["native"])
        ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
        assert not any(b in " ".join(ticks) for b in rows["benchmark"] if b.islower() and "-" in b), ticks
        widths = bar_order(fig)[0]
        assert widths == sorted(widths), (rows["group"].iloc[0], widths)
        _clean(fig)
        plt.close(fig)


def test_cells_of_one_process_each_draw_a_chart_of_a_page_not_a_billion_pixels(fake_cells):
    """Cells without an interval (one process each: a host lost mid-run) once drew their labels a million axis-widths
    to the right; `just report` now fails on a chart it cannot draw, so the chart must draw."""
    from analysis.charts.save import render_figure

    rows = next(_groups(fake_cells)).copy()
    rows[["ci99_upper_ns", "ci99_lower_ns", "ci99_half_width_ns"]] = float("nan")
    fig = ratio_bar_chart(rows, "group title", ["native"])
    png = render_figure(fig)["png"]
    width = int.from_bytes(png[16:20], "big")
    assert 0 < width < 4000, width


def test_with_two_levels_bars_follow_the_first_level_and_labels_say_the_level(fake_cells):
    rows = fake_cells[fake_cells["experiment"] == "000"]
    order = speed_order(rows, ["native", "no-avx512"])
    native = rows[(rows["setting"] == "native") & rows["status"].isin(["ok"])].set_index("benchmark")["time_ns"]
    times = [native[b] for b in order if b in native]
    assert times == sorted(times)
    fig = ratio_bar_chart(rows, "000", ["native", "no-avx512"])
    assert any(t.get_text().startswith("no-avx512: ") for t in fig.axes[0].texts)
    _clean(fig)
    plt.close(fig)


def test_the_baseline_is_marked_not_moved(fake_cells):
    rows = fake_cells[(fake_cells["experiment"] == "001") & (fake_cells["group"] == "file")]
    fig = ratio_bar_chart(rows, "001 file", ["native"])
    ticks = [t for t in fig.axes[0].get_yticklabels() if "[baseline]" in t.get_text()]
    assert len(ticks) == 1 and ticks[0].get_fontweight() == "bold"
    baseline = rows["baseline"].iloc[0]
    assert speed_order(rows, ["native"])[-1] == baseline  # Newtonsoft is 2× slower: last, where its time puts it
    plt.close(fig)


def test_display_labels_are_unique_and_add_the_dataset_only_when_needed(fake_cells):
    rows = fake_cells[fake_cells["experiment"] == "000"]
    labels = display_labels(rows)
    assert len(set(labels.values())) == len(labels)
    assert labels["NewtonSoftJson_Camel"].startswith("Newtonsoft.Json ")
    assert any("(myclass-camel)" in label for label in labels.values())


@pytest.mark.parametrize(
    "ratio, lower, upper, expected",
    [
        (0.43, 0.40, 0.46, "A is 2.3× faster than B [2.2, 2.5]"),
        (0.05, 0.045, 0.055, "A is 20× faster than B [18, 22]"),
        (0.92, 0.90, 0.94, "A is 9% faster than B [6%, 11%]"),
        (1.2, 1.15, 1.25, "A is 20% slower than B [15%, 25%]"),
        (1.01, 0.98, 1.03, "A and B: no difference within ±3%"),
        (0.97, 0.80, 1.15, "A vs B: undecided, 0.97× the time [0.80, 1.15]"),
    ],
)
def test_a_takeaway_claims_no_more_than_its_interval(ratio, lower, upper, expected):
    assert time_ratio_takeaway("A", "B", ratio, lower, upper) == expected


def test_a_takeaway_without_an_interval_says_so():
    assert "no interval" in time_ratio_takeaway("A", "B", 0.5, None, None)


def test_the_fastest_is_named_only_when_clear_of_the_runner_up():
    assert fastest_takeaway([("a", 100, 95, 105), ("b", 120, 110, 130)], "ms", False).startswith("a is fastest")
    assert "overlap" in fastest_takeaway([("a", 100, 90, 115), ("b", 110, 105, 120)], "ms", False)
    assert fastest_takeaway([("a", 900, 880, 920), ("b", 700, 690, 710)], "MB/s", True).startswith("a is fastest")


def _cold_table() -> pd.DataFrame:
    rows = []
    for i, (variant, library, ms) in enumerate(
        [
            ("jil-default", "Jil", 191.0),
            ("stj-default", "System.Text.Json", 120.0),
            ("newtonsoft-default", "Newtonsoft.Json", 260.0),
        ]
    ):
        rows.append(
            {
                "experiment": "005",
                "group": "ser",
                "benchmark": f"cold-ser-{variant}",
                "lab": "dotnet",
                "variant": variant,
                "library": library,
                "library_version": "1.0",
                "dataset": "x",
                "runtime": "10.0.12",
                "isa_level": "native",
                "status": "ok",
                "runs": 20,
                "process_ms": ms,
                "process_ci99_lower_ms": ms * 0.97,
                "process_ci99_upper_ms": ms * 1.03,
                "before_call_ms": ms * 0.6,
                "first_call_ms": ms * 0.4,
                "peak_rss_mib": 30.0,
                "error": None,
            }
        )
    return pd.DataFrame(rows)


def test_the_cold_start_chart_is_sorted_named_and_its_labels_clear_their_whiskers():
    fig = cold_start_chart(_cold_table(), "005: cold start")
    assert bar_order(fig)[0] == sorted(bar_order(fig)[0])
    ticks = [t.get_text() for t in fig.axes[0].get_yticklabels()]
    assert ticks[0] == "System.Text.Json 1.0\ndefault options · .NET 10.0.12" and "cold-" not in " ".join(ticks)
    assert (
        fig.axes[0]
        .get_title(loc="left")
        .startswith("System.Text.Json 1.0 · default options on .NET 10.0.12 is fastest: 120 ms, clear of Jil")
    )
    _clean(fig)
    plt.close(fig)


def test_the_throughput_chart_is_sorted_fastest_first_and_clean():
    table = pd.DataFrame(
        [
            {
                "dataset": "twitter",
                "lab": lab,
                "runtime": runtime,
                "runtime_requested": version,
                "runtime_version": version,
                "library": library,
                "library_version": "1",
                "variant": variant,
                "status": "ok",
                "mb_per_s": mb,
                "mb_per_s_lower": mb * 0.98,
                "mb_per_s_upper": mb * 1.02,
                "error": None,
            }
            for lab, runtime, version, library, variant, mb in [
                ("dotnet", ".NET", "10.0.12", "SpanJson", "spanjson-default", 824.0),
                ("reference-node", "Node.js", "22.11.0", "JSON (V8 built-in)", "json-string", 700.0),
                ("dotnet", ".NET", "10.0.12", "Newtonsoft.Json", "newtonsoft-default", 120.0),
            ]
        ]
    )
    fig = throughput_chart(table, "Cross-language: deserialize")
    widths = bar_order(fig)[0]
    assert widths == sorted(widths, reverse=True)
    assert "Highest throughput on 1 of 1 datasets: SpanJson 1 · default resolver (.NET 10.0.12)" == fig.axes[
        0
    ].get_title(loc="left")
    _clean(fig)
    plt.close(fig)


def test_a_throughput_lead_inside_the_runner_up_interval_is_not_called_a_win():
    table = pd.DataFrame(
        [
            {
                "dataset": "twitter",
                "lab": "dotnet",
                "runtime": ".NET",
                "runtime_requested": "10.0.12",
                "runtime_version": "10.0.12",
                "library": lib,
                "library_version": "1",
                "variant": var,
                "status": "ok",
                "mb_per_s": mb,
                "mb_per_s_lower": mb * 0.98,
                "mb_per_s_upper": mb * 1.02,
                "error": None,
            }
            for lib, var, mb in [("SpanJson", "spanjson-default", 824.0), ("Utf8Json", "utf8json-default", 808.0)]
        ]
    )
    fig = throughput_chart(table, "Cross-language: deserialize")
    assert fig.axes[0].get_title(loc="left").startswith("no bar is fastest clear")
    plt.close(fig)


def test_the_checks_catch_what_they_are_for():
    fig, ax = plt.subplots(figsize=(4, 2))
    ax.barh([0, 1], [3, 1], xerr=[0.5, 0.5])
    ax.text(3, 0, "on the whisker")
    ax.text(0.1, 1, "one label")
    ax.text(0.12, 1, "another label")
    assert ("one label", "another label") in overlapping_texts(fig)
    assert "on the whisker" in texts_on_error_bars(fig)
    assert bar_order(fig) == [[3.0, 1.0]] or bar_order(fig) == [[1.0, 3.0]]
    assert local_names("see /root/lab/results/x.log") == ["/root/lab/results/x.log"]
    assert local_names("logs/000__x.round-1.log") == []
    plt.close(fig)


def test_the_dark_theme_turns_greys_over_and_keeps_library_colours(fake_cells):
    from matplotlib.colors import to_hex

    from analysis.charts.style import DARK_BACKGROUND, LIBRARY_COLORS, apply_theme

    rows = fake_cells[(fake_cells["experiment"] == "001") & (fake_cells["group"] == "file")]
    fig = apply_theme(ratio_bar_chart(rows, "001 file", ["native"]), "dark")
    assert to_hex(fig.patch.get_facecolor()) == DARK_BACKGROUND
    bar_colours = {to_hex(p.get_facecolor()) for p in fig.axes[0].patches}
    assert LIBRARY_COLORS["Newtonsoft.Json"].lower() in bar_colours
    greys = [t.get_color() for t in fig.axes[0].get_yticklabels() if t.get_color() != to_hex("#c0392b")]
    greys = [c for c in greys if isinstance(c, tuple) and max(c[:3]) - min(c[:3]) < 0.06]
    assert greys and all(sum(c[:3]) / 3 > 0.8 for c in greys)  # dark text turned light; the red UNVERIFIED kept
    with pytest.raises(ValueError, match="unknown theme"):
        apply_theme(fig, "sepia")
    plt.close(fig)


def test_a_whisker_far_beyond_its_axes_is_judged_where_it_is_drawn():
    """An interval from two processes can run from near 0 to a million on a log axis; drawn, it stops at the axes. Texts
    outside the axes (titles, tick labels, notes) are not on it; a text inside, on the drawn part, is (the smoke run's
    runtime sweep once flagged every text of its figure)."""
    fig, ax = plt.subplots(figsize=(4, 3))
    ax.set_yscale("log")
    ax.errorbar([0, 1], [1.0, 1.2], yerr=[[0.9999999, 0.1], [1e6, 0.1]], fmt="o")
    ax.set_ylim(0.5, 2)
    ax.set_xlim(-0.5, 1.5)
    ax.set_title("a title above the axes")
    ax.set_xlabel("an axis label below")
    fig.text(0.01, 0.01, "a note under the chart")
    assert texts_on_error_bars(fig) == []
    ax.text(0, 1.5, "on the drawn whisker", ha="center")
    assert texts_on_error_bars(fig) == ["on the drawn whisker"]
    plt.close(fig)


def test_a_claims_chart_title_counts_verdicts_by_kind_and_leaves_their_reasons_to_the_table():
    import pandas as pd

    from analysis.charts.claims_dots import takeaway

    verdicts = pd.DataFrame(
        {
            "verdict": [
                "reproduced",
                "unavailable: not measured: X is under its vendor's terms; to accept …",
                "failed: x",
            ]
        }
    )
    assert takeaway(verdicts) == "1 of 3 published ratios reproduced within ±15% (1 unavailable, 1 failed)"
