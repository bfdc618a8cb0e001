from analysis.charts.ratio_bars import UNVERIFIED_COLOR, ratio_bar_chart
from analysis.charts.save import render_figure


def test_unverified_bars_are_hatched_and_their_labels_marked(fake_cells):
    rows = fake_cells[(fake_cells["experiment"] == "000")]
    fig = ratio_bar_chart(rows, "000", ["native", "no-avx512"])
    ax = fig.axes[0]
    hatched = [p for p in ax.patches if p.get_hatch() == "///"]
    assert len(hatched) == 2  # SystemTextCaseSensitive_Camel at two levels
    camel = [
        t
        for t in ax.get_yticklabels()
        if t.get_text().startswith("System.Text.Json 10.0.12\ndefault options (myclass-camel)")
    ]
    assert len(camel) == 1 and "UNVERIFIED" in camel[0].get_text()
    assert camel[0].get_color() == UNVERIFIED_COLOR
    assert any(t.get_text().startswith("native: 0.50× ±") for t in ax.texts)
    assert set(render_figure(fig)) == {"png", "svg"}


def test_a_failed_cell_is_marked_on_its_row_and_its_reason_is_written_under_the_chart(fake_cells):
    rows = fake_cells[(fake_cells["experiment"] == "001") & (fake_cells["group"] == "file")].copy()
    failed = rows["benchmark"] == "file-stj-default"
    rows.loc[failed, "status"] = "failed"
    rows.loc[
        failed, "error"
    ] = "Jil 3.0.0-alpha2 cannot deserialize List<Employee>: DeserializationException: boom (hint; full log: x)"
    fig = ratio_bar_chart(rows, "001 file", ["native", "no-avx512"])
    assert any(t.get_text().strip().startswith("failed (note 1 below)") for t in fig.axes[0].texts)
    notes = [t.get_text() for t in fig.texts]
    assert any(
        n.startswith("1. System.Text.Json 10.0.12 · default options: failed: Jil 3.0.0-alpha2 cannot deserialize")
        and "full log" not in n
        for n in notes
    )


def test_notes_under_a_chart_are_bounded_and_name_no_local_path():
    """A failed cell's error can be a stack trace pages long; under a chart it is one short line, without the path of
    the machine's log file, and at most a few of them (one such footnote once made a figure 262,254 pixels tall)."""
    import matplotlib.pyplot as plt

    from analysis.charts.style import MAX_NOTES, NOTE_CHARS, finish

    fig, _ = plt.subplots(figsize=(9, 3))
    trace = "cell failed: see /root/lab/results/run/logs/cell.round-1.log\n" + "   at Frame()\n" * 2000
    fig = finish(fig, [trace + ("x" * 5000)] * 50)
    texts = [t.get_text() for t in fig.texts]
    assert len(texts) == 1 and "/root/" not in texts[0] and "cell.round-1.log" in texts[0]
    lines = [line for line in texts[0].splitlines() if line]
    assert len(lines) <= (MAX_NOTES + 1) * 2 and all(len(line) <= NOTE_CHARS for line in lines)
    assert "and 42 more" in texts[0]
    assert fig.get_figheight() < 8
    plt.close(fig)


def test_runtimes_sort_by_version_whether_numbered_or_named():
    # the C++ lab's runtimes are compiler builds; a sweep of them once failed the chart with int < str
    from analysis.formatting.names import runtime_order as _version_key

    names = ["10.0.12", "9.0.20", "gcc-12.2.0-native", "3.1.3", "gcc-12.2.0"]
    assert sorted(names, key=_version_key) == ["gcc-12.2.0", "gcc-12.2.0-native", "3.1.3", "9.0.20", "10.0.12"]


def test_a_runtime_sweep_line_runs_from_the_oldest_runtime_to_the_newest_whatever_the_row_order():
    import pandas as pd

    from analysis.charts.runtime_sweep import _points

    rows = pd.DataFrame(
        {
            "runtime_requested": ["3.1.3", "10.0.12", "8.0.0"],  # the cells' order, not the runtimes'
            "status": ["ok"] * 3,
            "comparison_void": [False] * 3,
            "ratio": [0.9, 0.24, 0.27],
            "ratio_ci99_lower": [0.8, 0.2, 0.25],
            "ratio_ci99_upper": [1.0, 0.3, 0.3],
        }
    )
    xs, ys, low, high = _points(rows, ["3.1.3", "8.0.0", "10.0.12"], "b", "native", [])
    assert xs == [0, 1, 2] and ys == [0.9, 0.27, 0.24]
    assert [round(v, 2) for v in low] == [0.1, 0.02, 0.04] and [round(v, 2) for v in high] == [0.1, 0.03, 0.06]


def test_a_runtime_sweep_title_says_what_its_lines_show():
    # seen in a default run: 003's deserialize-big sweep (System.Text.Json at 0.57-0.66x on every runtime) was titled
    # "no ratio to Newtonsoft.Json · default settings changed direction", which read as the opposite
    from analysis.charts.runtime_sweep import takeaway

    runtimes = ["3.1.3", "8.0.0", "10.0.12"]
    faster = [("3.1.3", 0.66, 0.62, 0.70), ("8.0.0", 0.60, 0.58, 0.63), ("10.0.12", 0.57, 0.55, 0.59)]
    assert takeaway({"STJ": faster}, runtimes, "Newtonsoft") == (
        "STJ: 0.57–0.66× the time of Newtonsoft from 3.1.3 to 10.0.12, faster on every runtime"
    )
    straddles = [("3.1.3", 1.02, 0.97, 1.08), ("10.0.12", 1.20, 1.10, 1.30)]
    flips = [("3.1.3", 0.8, 0.7, 0.9), ("10.0.12", 1.2, 1.1, 1.3)]
    assert takeaway({"A": faster, "B": straddles}, runtimes, "N") == (
        "no ratio to N changed direction from 3.1.3 to 10.0.12: 1 faster on every runtime, 0 slower, "
        "1 within the noise of 1 somewhere"
    )
    assert takeaway({"A": faster, "C": flips}, runtimes, "N") == (
        "1 of 2 ratios to N changed direction from 3.1.3 to 10.0.12: C"
    )
    assert takeaway({"A": faster[:1]}, runtimes, "N") == "each benchmark measured on one runtime only (against N)"
