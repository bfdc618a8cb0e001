import pandas as pd

from analysis.charts.save import render_figure
from analysis.charts.throughput import throughput_chart
from analysis.compute.cross_language import cross_language_markdown, cross_language_table
from analysis.compute.verdicts.chart_refs import ChartRef
from harness.config.experiment.experiments import load_experiments


def _cell(
    benchmark, group, lab, variant, time_ns, payload_bytes, status="ok", runtime="24.21.0", operation="deserialize"
):
    return {
        "experiment": "006",
        "isa_requested": "native",
        "group": group,
        "benchmark": benchmark,
        "lab": lab,
        "variant": variant,
        "dataset": "twitter",
        "operation": operation,
        "runtime_requested": runtime,
        "runtime_version": runtime,
        "library": "lib",
        "library_version": "1.0",
        "payload_form": "string",
        "status": status,
        "replicates": 6,
        "time_ns": time_ns,
        "ci99_lower_ns": time_ns * 0.9,
        "ci99_upper_ns": time_ns * 1.1,
        "payload_bytes": payload_bytes,
        "allocated_bytes_per_op": None,
        "error": None,
        "verification_message": "",
    }


def _cells():
    return pd.DataFrame(
        [
            _cell("parse-string-twitter", "parse-twitter", "reference-node", "json-string", 1_000_000, 600_000),
            _cell(
                "dotnet-parse-jsondocument-twitter",
                "dotnet-parse-twitter",
                "dotnet",
                "stj-jsondocument",
                500_000,
                600_000,
                runtime="10.0.12",
            ),
            _cell(
                "dotnet-parse-jtoken-twitter",
                "dotnet-parse-twitter",
                "dotnet",
                "newtonsoft-jtoken",
                2_000_000,
                600_000,
                status="failed",
                runtime="10.0.12",
            ),
            _cell(
                "stringify-fast-json-stringify-canada",
                "stringify-canada",
                "reference-node",
                "fast-json-stringify",
                10,
                10,
                operation="serialize",
            ),
            _cell("other", "not-shared", "dotnet", "x", 1, 1),
        ]
    )


def test_shared_operations_are_set_side_by_side_across_labs_with_throughput_from_the_payload_size():
    table = cross_language_table([load_experiments()["006"]], _cells())
    parse = table[table["shared_operation"] == "untyped-parse"]
    assert list(parse["variant"]) == ["stj-jsondocument", "json-string", "newtonsoft-jtoken"], "fastest first"
    dotnet = parse.iloc[0]
    assert dotnet["mb_per_s"] == 1200.0  # 600,000 bytes in 0.5 ms
    assert dotnet["mb_per_s_lower"] < 1200.0 < dotnet["mb_per_s_upper"], "the time's interval, inverted"
    assert "other" not in set(table["benchmark"]), "a group without a shared operation stays out"
    text = cross_language_markdown(table, [ChartRef("cross-language-untyped-parse", "SpanJson is fastest [x]")])
    assert "### untyped-parse: twitter (600,000 bytes of input)" in text
    assert "stj-jsondocument ★" in text and "json-string ★" in text, "the fastest verified cell of each lab is marked"
    assert "failed" in text and "![SpanJson is fastest (x)](charts/cross-language-untyped-parse.png)" in text


def test_the_throughput_chart_draws_measured_cells_and_lists_failed_ones():
    table = cross_language_table([load_experiments()["006"]], _cells())
    fig = throughput_chart(table[table["shared_operation"] == "untyped-parse"], "Cross-language: untyped-parse")
    assert len(fig.axes[0].patches) >= 2
    assert any("newtonsoft-jtoken (dotnet) on twitter: failed" in t.get_text() for t in fig.texts)
    assert set(render_figure(fig)) == {"png", "svg"}


def test_no_shared_operation_means_no_section():
    assert cross_language_markdown(cross_language_table([], _cells())) == ""


def test_a_benchmark_can_name_its_own_shared_operation_and_keeps_its_group():
    cells = pd.concat(
        [
            _cells(),
            pd.DataFrame(
                [
                    _cell(
                        "dotnet-serialize-stj-twitter",
                        "dotnet-serialize-twitter",
                        "dotnet",
                        "stj-default",
                        5,
                        10,
                        runtime="10.0.12",
                        operation="serialize",
                    )
                ]
            ),
        ]
    )
    table = cross_language_table([load_experiments()["006"]], cells)
    typed = table[table["shared_operation"] == "typed-serialize"]
    assert list(typed["benchmark"]) == ["dotnet-serialize-stj-twitter", "stringify-fast-json-stringify-canada"]
    assert set(typed["group"]) == {
        "dotnet-serialize-twitter",
        "stringify-canada",
    }, "fast-json-stringify stays in its JSON.stringify group"
    assert "untyped-stringify" not in set(table["shared_operation"])


def _with_cpp(*cpp_cells):
    return pd.concat([_cells(), pd.DataFrame(list(cpp_cells))], ignore_index=True)


def test_the_fastest_verified_cell_of_a_speed_of_light_lab_is_every_cell_s_reference():
    cells = _with_cpp(
        _cell(
            "cpp-parse-simdjson-dom-twitter",
            "cpp-parse-twitter",
            "cpp",
            "simdjson-dom",
            250_000,
            600_000,
            runtime="gcc-12.2.0",
        ),
        # faster, but unverified: never the reference
        _cell(
            "cpp-parse-nlohmann-twitter",
            "cpp-parse-twitter",
            "cpp",
            "nlohmann",
            100_000,
            600_000,
            status="unverified",
            runtime="gcc-12.2.0",
        ),
    )
    table = cross_language_table([load_experiments()["006"]], cells, frozenset({"cpp"}))
    parse = table[table["shared_operation"] == "untyped-parse"].set_index("variant")
    assert parse.loc["simdjson-dom", "speed_of_light_mb_per_s"] == 2400.0  # 600,000 bytes in 0.25 ms
    assert parse.loc["simdjson-dom", "fraction_of_speed_of_light"] == 1.0
    assert parse.loc["stj-jsondocument", "fraction_of_speed_of_light"] == 0.5
    assert set(parse["speed_of_light_cell"]) == {"lib simdjson-dom (cpp gcc-12.2.0)"}
    text = cross_language_markdown(table)
    assert "of speed of light" in text and "| 50% |" in text
    assert "Speed of light: lib simdjson-dom (cpp gcc-12.2.0), 2,400 MB/s" in text
    fig = throughput_chart(table[table["shared_operation"] == "untyped-parse"], "Cross-language: untyped-parse")
    assert [line.get_xdata()[0] for line in fig.axes[0].lines if line.get_linestyle() == "--"] == [2400.0]
    assert "dashed: the speed of light" in fig.axes[0].get_xlabel()


def test_without_a_speed_of_light_lab_no_reference_is_shown():
    table = cross_language_table([load_experiments()["006"]], _cells())
    assert table["speed_of_light_mb_per_s"].isna().all()
    assert "of speed of light" not in cross_language_markdown(table)


def test_peak_rss_is_a_column_where_a_block_has_it():
    cells = _cells()
    cells["peak_rss_bytes"] = [50 << 20, 30 << 20, None, None, None]
    table = cross_language_table([load_experiments()["006"]], cells)
    text = cross_language_markdown(table)
    parse = text.split("### untyped-parse: twitter")[1].split("###")[0]
    assert "| peak RSS |" in parse and "50.0 MiB" in parse and "30.0 MiB" in parse
    serialize = text.split("### typed-serialize: twitter")[1].split("###")[0]
    assert "| allocated/op | n |" in serialize and "peak RSS" not in serialize, "a block with no reading has none"
