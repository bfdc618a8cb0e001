"""Report output pinned by golden files (set UPDATE_GOLDEN=1 to rewrite them after an intended change)."""

import dataclasses
import os

import pandas as pd
import pytest

from analysis.compute.verdicts.verdicts import verdict_table
from analysis.formatting.tables import experiment_markdown, markdown_table, reproduction_markdown
from analysis.render.writer import write_report
from harness.backends.fake import FakeBackend
from harness.backends.fake_clock import FakeClock
from harness.config.experiment.experiments import load_experiments
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES

GOLDEN = FIXTURES / "golden"


def _check_golden(name: str, text: str) -> None:
    path = GOLDEN / name
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    assert text == path.read_text(), f"{name} changed; rerun with UPDATE_GOLDEN=1 if intended"


def _in_run():
    """The experiments the shared fake run measured (write-ups 000 and 001)."""
    return [e for e in load_experiments().values() if e.id in ("000", "001")]


def test_markdown_tables_escape_pipes():
    assert markdown_table(["a"], [["x|y"]]) == "| a |\n|---|\n| x\\|y |\n"


def test_experiment_tables_match_the_golden_file(fake_cells):
    text = "\n".join(experiment_markdown(e, fake_cells, ["native", "no-avx512"]) for e in _in_run())
    _check_golden("experiment-tables.md", text)


def test_reproduction_table_matches_the_golden_file(fake_cells, fake_rows):
    _check_golden("reproduction.md", reproduction_markdown(verdict_table(_in_run(), fake_cells, fake_rows)))


def test_the_report_folder_has_markdown_tables_and_both_chart_formats(fake_run):
    report = write_report(fake_run)
    text = report.read_text()
    out = report.parent
    for name in ("000-myclass-ratio-bars", "001-single-ratio-bars", "001-file-ratio-bars"):
        assert (out / "charts" / f"{name}.png").stat().st_size > 1000
        assert (out / "charts" / f"{name}.svg").read_text().lstrip().startswith("<?xml")
        assert f"charts/{name}.png" in text
    for name in ("results.csv", "reproduction.csv", "000.csv", "001.csv"):
        assert (out / "tables" / name).is_file()
    assert (out / "reproduction.md").is_file()
    assert "## What was verified" in text and "void: verification failed" in text
    assert "Median relative 99% CI half-width, over processes" in text


def test_a_run_folder_without_results_is_an_explained_error(tmp_path):
    from harness.model.errors import HarnessError

    with pytest.raises(HarnessError, match="no results.jsonl"):
        write_report(tmp_path)


def test_a_process_whose_cpu_was_busy_elsewhere_is_flagged_in_the_noise_section_and_its_table(tmp_path):
    from harness.backends.fake import FakeBackend
    from harness.planning.run_plan import RunOptions
    from harness.session.runner import execute_run

    # the cell's first process is disturbed (50% of its 2 s went elsewhere), its replacement and later ones are not
    backend = FakeBackend(
        FIXTURES / "dotnet-cell", interference_ms={"001:single-newtonsoft@native/10.0.12": [1000.0, 0.0]}
    )
    options = RunOptions(
        profile="smoke",
        design="interleaved",
        runtimes=("10.0.12",),
        results_dir=tmp_path,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
        isa_levels=("native",),
    )
    text = write_report(execute_run(options, backend).directory).read_text()
    assert (
        "Disturbed processes (over 5% of their CPU's time spent on other work or stolen by the hypervisor): 1 of"
        in text
    )
    assert "| 001:single-newtonsoft@native/10.0.12 | 1 (replaced, attempt 1) | 50% of 2.0 s | 3 |" in text
    assert "Disturbed processes replaced by fresh ones in the same round: 1 (" in text
    assert "⚡ disturbed" not in text, "the replacement stands for the round: the cell's statistics are clean"


def test_cold_start_cells_get_their_own_section_table_and_chart_and_stay_out_of_the_ratios(tmp_path):
    from harness.backends.fake import FakeBackend
    from harness.planning.run_plan import RunOptions
    from harness.session.runner import execute_run

    backend = FakeBackend(
        FIXTURES / "dotnet-cell",
        time_scale={"stj-sourcegen-camel-utf8": 0.5},
        failing_cells=frozenset({"005:cold-ser-stj@native/8.0.0"}),
    )
    options = RunOptions(
        profile="smoke",
        design="interleaved",
        runtimes=("8.0.0", "10.0.12"),
        experiments=("001", "005"),
        isa_levels=("native",),
        benchmarks=("single-stj-default", "cold-ser-stj-sourcegen"),
        results_dir=tmp_path,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
    report = write_report(execute_run(options, backend).directory)
    text, out = report.read_text(), report.parent
    section = text[text.index("## Cold start") :]
    # 60 ms × 0.5 (runs at 1.00, 1.01, 1.02 of it): median 30.3 ms, 22.7 before the call, 7.6 the call, 40 MiB, 3 runs.
    assert (
        "| cold-ser-stj-sourcegen | System.Text.Json (source generated) | 10.0.12 | 30.3 [28.6, 32.0] | 22.7 | 7.6 | "
        "40.0 | 3 |" in section
    )
    assert "| cold-ser-stj | " in section and "failed: simulated failure of 005:cold-ser-stj@native/8.0.0" in section
    # The image's alt text is the chart's finding, then its numbers (the sourcegen cells start in half the time).
    image = next(line for line in section.splitlines() if "](charts/005-first-serialize-cold-start.png)" in line)
    assert image.startswith("![System.Text.Json (source generated)") and " ms (" in image, image
    assert (out / "charts" / "005-first-serialize-cold-start.png").stat().st_size > 1000
    cold = pd.read_csv(out / "tables" / "cold-start.csv")
    assert len(cold) == 4 and set(cold["runtime"]) == {"8.0.0", "10.0.12"}
    results = pd.read_csv(out / "tables" / "results.csv", dtype={"experiment": str})
    assert set(results["experiment"]) == {"001"}  # steady-state cells only: cold starts have no ratios or verdicts


def test_groups_the_run_budget_cut_short_are_named_in_the_precision_section_and_the_method(tmp_path):
    clock = FakeClock()
    backend = FakeBackend(
        FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.05, clock=clock
    )
    options = RunOptions(
        profile="default",
        design="interleaved",
        runtimes=("10.0.12",),
        experiments=("001",),
        isa_levels=("native",),
        results_dir=tmp_path,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
        budget_min=0.5,
        clock=clock,
    )
    run_dir = execute_run(options, backend).directory
    report = write_report(run_dir).read_text()
    precision = report[report.index("## Precision") :].split("\n## ")[0]
    assert "were stopped by the run's time budget (0.5 min" in precision and "**budget**" in precision
    assert "a time budget of 0.5 min" in report


def test_a_group_with_run_settings_says_them_above_its_table(fake_cells):
    exp = next(e for e in _in_run() if e.id == "001")
    group = next(iter(exp.groups.values()))
    settings = (("gc", "server"), ("tiered_compilation", "off"))
    exp = dataclasses.replace(exp, groups={**exp.groups, group.id: dataclasses.replace(group, run_settings=settings)})
    text = experiment_markdown(exp, fake_cells, ["native"])
    assert f"#### {group.title}\n\nRun settings: `gc = server`, `tiered_compilation = off` (every process" in text
    assert text.count("Run settings:") == 1


def test_a_torn_last_line_is_left_out_of_the_report_and_named_in_its_header(fake_run, tmp_path):
    import shutil

    copy = tmp_path / fake_run.name
    shutil.copytree(fake_run, copy)
    with (copy / "results.jsonl").open("ab") as f:
        f.write(b'{"schema_version": 1, "cell_id": "000:Sys')  # what a run killed mid-write leaves
    report = write_report(copy).read_text()
    assert "**Set aside**: results.jsonl line" in report and "`just resume` measures that process again" in report
    assert (copy / "results.jsonl").read_bytes().endswith(b'"cell_id": "000:Sys'), "a report never edits the run"


@pytest.mark.parametrize("experiment", ["005", "007"], ids=["cold starts only", "single-shot only"])
def test_a_run_of_one_write_up_of_another_shape_renders_its_report(experiment, tmp_path):
    """Finding 5 of issue 44: a run of only write-up 005 (cold starts, a documented shape) made `just report` fail with
    a KeyError; every run shape the docs name renders."""
    options = RunOptions(
        profile="default",
        design="interleaved",
        runtimes=None,
        experiments=(experiment,),
        isa_levels=("native",),
        results_dir=tmp_path,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
        check_tools=False,
        build=False,
    )
    report = write_report(execute_run(options, FakeBackend(FIXTURES / "dotnet-cell")).directory)
    text = report.read_text()
    assert (f"## Experiment {experiment}:" in text or f"### {experiment}:" in text) and (
        report.parent / "report.html"
    ).is_file()
    if experiment == "005":
        assert "This run measured no published claim" in text and "## Cold start" in text


def test_a_chart_that_cannot_be_drawn_makes_the_report_exit_non_zero_with_the_rest_written(
    fake_run, tmp_path, monkeypatch, capsys
):
    """Issue 44: an infinite ratio drew a chart that failed while `just report` exited 0."""
    import shutil

    from analysis import cli
    from analysis.render import writer

    run = tmp_path / fake_run.name
    shutil.copytree(fake_run, run, ignore=shutil.ignore_patterns("report"))
    real = writer.chart_specs

    def broken_draw():
        raise ValueError("Axis limits cannot be NaN or Inf")

    def with_a_broken_one(inputs, caption):
        specs = real(inputs, caption)
        return [dataclasses.replace(specs[0], draw=broken_draw), *specs[1:]]

    monkeypatch.setattr(writer, "chart_specs", with_a_broken_one)
    assert cli.main(["report", str(run)]) == 2
    err = capsys.readouterr().err
    assert "error: " in err and "1 chart(s) could not be drawn" in err and "Axis limits cannot be NaN" in err
    assert (run / "report" / "report.md").is_file() and (run / "report" / "report.html").is_file()
