"""The paired design: several cells of a group in one process, ratios taken burst against burst inside it."""

import dataclasses
import json
import math
import os
import pathlib
import types
from unittest import mock

import pytest

from analysis.compute.aggregate import with_ratios
from analysis.compute.load import load_run
from analysis.compute.replicates import summarize_cells
from harness.backends.base import CellRequest
from harness.backends.fake import FakeBackend
from harness.config.lab.labs import load_labs
from harness.model.cells import Cell, JobSettings
from harness.model.errors import PinningError
from harness.model.groups import AA_SUFFIX, is_aa_copy
from harness.model.outcomes import ProcessUsage
from harness.model.stats.pairing import Replicate, burst_ratio, paired_ratio_interval, paired_ratios, replicate_of
from harness.planning.designs import DESIGNS, layout
from harness.planning.estimate import paired_process_seconds, processes_seconds
from harness.planning.plan import with_aa_copies
from harness.session.runner import execute_run
from tests.conftest import FIXTURES


def _cell(benchmark: str, group: str = "g", baseline: str = "base", lab: str = "dotnet", level: str = "native") -> Cell:
    return Cell("000", benchmark, group, baseline, lab, "stj-default", "myclass-camel", "deserialize", level)


def test_a_paired_process_ratio_is_the_median_of_its_burst_ratios():
    a = Replicate("a", 1, None, 100.0, "p#1", (100.0, 200.0, 110.0, 400.0, 105.0))
    b = Replicate("b", 1, None, 50.0, "p#1", (50.0, 100.0, 55.0, 100.0, 52.5))
    assert burst_ratio(a, b) == pytest.approx(2.0)  # the one burst a noisy host slowed (4.0) does not move the median


def test_sides_of_one_process_are_paired_burst_by_burst_and_sides_of_different_processes_by_round():
    # The process factor (×1.5 in round 2) moves both sides of a process alike: in-process ratios are exactly 2.
    variant = [Replicate("a", k, None, 200.0 * f, f"p#{k}", (200.0 * f, 210.0 * f)) for k, f in ((1, 1.0), (2, 1.5))]
    reference = [Replicate("b", k, None, 100.0 * f, f"p#{k}", (100.0 * f, 105.0 * f)) for k, f in ((1, 1.0), (2, 1.5))]
    assert paired_ratios(variant, reference) == pytest.approx([2.0, 2.0])
    # The same values from another group's processes (another ISA level): paired by round, on the process statistics.
    elsewhere = [dataclasses.replace(r, process=f"q#{r.round_index}") for r in reference]
    assert paired_ratios(variant, elsewhere) == pytest.approx([2.0, 2.0])
    crossed = [dataclasses.replace(elsewhere[0], value_ns=150.0), dataclasses.replace(elsewhere[1], value_ns=100.0)]
    assert paired_ratios(variant, crossed) == pytest.approx([200.0 / 150.0, 300.0 / 100.0])
    assert paired_ratio_interval(variant, reference).estimate == pytest.approx(2.0)


def test_sides_of_two_processes_that_timed_one_native_anchor_library_are_read_as_a_ratio_of_ratios():
    # Round 2's processes: the reference's ran on a machine 1.5x slower, which its anchor felt as well.
    def side(name: str, ns: float, slow: dict[int, float], library: str | None = "lib") -> list[Replicate]:
        return [
            Replicate(name, k, None, ns * slow[k], f"{name}#{k}", (ns * slow[k],) * 3, (50.0 * slow[k],) * 3, library)
            for k in (1, 2)
        ]

    variant, reference = side("a", 200.0, {1: 1.0, 2: 1.0}), side("b", 100.0, {1: 1.0, 2: 1.5})
    assert paired_ratios(variant, reference) == pytest.approx([2.0, 2.0])  # plain: 2.0 and 1.33
    other_library = side("b", 100.0, {1: 1.0, 2: 1.5}, library="other")
    assert paired_ratios(variant, other_library) == pytest.approx([2.0, 200.0 / 150.0])  # never across two libraries
    unanchored = [dataclasses.replace(r, anchor=(), anchor_library=None) for r in reference]
    assert paired_ratios(variant, unanchored) == pytest.approx([2.0, 200.0 / 150.0])  # nor with one side plain


def test_only_a_time_is_read_through_the_native_anchor():
    row = types.SimpleNamespace(
        benchmark="a",
        round_index=1,
        partner=None,
        burst_ns=[100.0, 110.0],
        isa_requested="native",
        experiment="x",
        group="g",
        runtime_requested="8.0.0",
        native_anchor_ns={"scan": [50.0, 55.0], "walk": [9.0, 9.0]},
        native_anchors_sha256="lib",
    )
    timed, memory = replicate_of(row, 105.0), replicate_of(row, 4096.0, timed=False)
    assert timed.anchor == (50.0, 55.0) and timed.anchor_library == "lib"
    assert memory.anchor == () and memory.anchor_library is None


def test_the_paired_design_puts_a_group_in_one_process_and_falls_back_where_a_process_cannot_hold_it():
    cells = [_cell("base"), _cell("x"), _cell("y")]
    design, slots = layout(DESIGNS["paired"], cells, 1, ("1",), can_share=True)
    assert design.name == "paired" and len(slots) == 1 and len(slots[0]) == 1
    assert sorted(c.benchmark for c in slots[0][0].cells) == ["base", "x", "y"]
    # a fresh member order every round, repeated by a resumed run
    orders = {
        tuple(c.benchmark for c in layout(DESIGNS["paired"], cells, k, ("1",), True)[1][0][0].cells)
        for k in range(1, 9)
    }
    assert len(orders) > 1
    assert layout(DESIGNS["paired"], cells, 3, ("1",), True) == layout(DESIGNS["paired"], cells, 3, ("1",), True)
    for can_share, group in ((False, cells), (True, cells[:1])):  # a lab without the verb; a group of one cell
        design, slots = layout(DESIGNS["paired"], group, 1, ("1",), can_share)
        assert design.name == "interleaved" and all(len(p.cells) == 1 for slot in slots for p in slot)


def test_an_aa_copy_of_the_baseline_joins_every_group_a_process_can_pair():
    cells = [
        _cell("base"),
        _cell("x"),
        _cell("solo", group="h", baseline="solo"),
        _cell("n1", group="node", baseline="n1", lab="node"),
        _cell("n2", group="node", baseline="n1", lab="node"),
    ]
    out = with_aa_copies(cells, lambda c: c.lab == "dotnet")
    copies = [c for c in out if is_aa_copy(c.benchmark)]
    assert [c.benchmark for c in copies] == ["base" + AA_SUFFIX]  # not the one-cell group, not a lab without the verb
    assert out.index(copies[0]) == 2 and copies[0].variant == "stj-default" and copies[0].baseline == "base"


def test_a_shared_process_usage_is_split_evenly_so_sums_over_rows_count_it_once():
    share = ProcessUsage(6.0, 5.4, 30.0, 3.0, 7).share(3)
    assert (
        share.wall_s,
        share.lab_cpu_s,
        share.cpu_other_ms,
        share.steal_ms,
        share.involuntary_context_switches,
    ) == pytest.approx((2.0, 1.8, 10.0, 1.0, 2))
    assert ProcessUsage(4.0).share(2) == ProcessUsage(2.0)


def test_a_paired_request_calls_the_paired_verb_with_one_member_per_cell(tmp_path):
    lab = load_labs()["dotnet"].for_runtime("10.0.12")
    cells = (_cell("base"), _cell("x"))
    request = CellRequest(
        lab,
        cells[0],
        tmp_path,
        tmp_path / "p",
        tmp_path / "log",
        JobSettings(prewarm_ms=300, burst_ms=20, burst_rounds=30),
        {},
        "1",
        60.0,
        members=tuple((c, tmp_path / "p" / c.slug) for c in cells),
        seed=42,
    )
    args = request.lab_args()
    assert args[0] == "paired" and args.count("--member") == 2
    assert f"stj-default/myclass-camel/deserialize={tmp_path / 'p' / cells[1].slug}" in args
    assert args[args.index("--seed") + 1] == "42" and args[args.index("--burst-rounds") + 1] == "30"
    assert lab.paired_format == "samples" and load_labs()["reference-node"].paired_format is None


def test_a_process_of_several_groups_keeps_each_groups_cells_together_and_names_their_blocks(tmp_path):
    from harness.session.processes.slot_processes import grouped

    a1, b1, a2, b2, a3 = _cell("a1", "a"), _cell("b1", "b"), _cell("a2", "a"), _cell("b2", "b"), _cell("a3", "a")
    assert grouped([a1, b1, a2, b2, a3]) == ((a1, a2, a3, b1, b2), (3, 2))
    assert grouped([a1, a2]) == ((a1, a2), ())  # one group: no blocks, the lab's order as before
    lab = load_labs()["dotnet"].for_runtime("10.0.12")
    request = CellRequest(
        lab, a1, tmp_path, tmp_path / "p", tmp_path / "log", JobSettings(), {}, "1", 60.0, members=((a1, tmp_path),)
    )
    assert "--member-blocks" not in request.lab_args()
    args = dataclasses.replace(request, member_blocks=(3, 2)).lab_args()
    assert args[args.index("--member-blocks") + 1] == "3,2"


def test_a_paired_process_is_estimated_from_its_members_and_bursts():
    job = JobSettings(burst_ms=20, burst_rounds=30)
    assert paired_process_seconds(job, 3) == pytest.approx(1.8 + 3 * (0.15 + 30 * 0.02 * 1.05))
    assert paired_process_seconds(JobSettings(), 3) is None
    assert processes_seconds(job, [3, 2]) == pytest.approx(
        paired_process_seconds(job, 3) + paired_process_seconds(job, 2)
    )


@pytest.fixture
def paired_run(smoke_options):
    """The smoke cells under the paired design, with a 10% speed spread between processes that pairing must cancel."""
    backend = FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1)
    options = dataclasses.replace(smoke_options, design="paired", run_id="paired")
    return execute_run(options, backend), backend, options


def test_a_paired_run_measures_each_group_in_one_process_per_round_with_its_aa_copy(paired_run):
    summary, backend, _ = paired_run
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    steady = [r for r in rows if r["measure"] == "steady"]
    assert all(len(slot) == 1 for slot in backend.slots)  # one process at a time
    # write-up 000's group (3 cells + A/A) and 001's single group (2 cells + A/A), at two levels, two rounds each
    assert len(backend.slots) == 2 * 2 * 2 and len(steady) == 2 * 2 * (4 + 3)
    assert {r["design"] for r in steady} == {"paired"} and {r["process_cells"] for r in steady} == {3, 4}
    assert sum(r["benchmark"].endswith(AA_SUFFIX) for r in steady) == 2 * 2 * 2
    for row in steady:
        assert row["status"] in ("ok", "unverified") and len(row["burst_ns"]) == 4  # the smoke job's burst_rounds
        assert (summary.directory / row["raw_path"]).name == "samples.json" and (
            summary.directory / row["log_path"]
        ).is_file()
    one = [r for r in steady if r["experiment"] == "001" and r["round_index"] == 1 and r["isa_requested"] == "native"]
    assert sum(r["duration_s"] for r in one) == pytest.approx(
        2.0, abs=0.02
    )  # the fake process's 2 s, split among its 3 cells


def test_pairing_in_one_process_cancels_the_process_spread_and_the_aa_copy_comes_out_one(paired_run, smoke_options):
    summary, _, _ = paired_run
    rows = load_run(summary.directory).rows
    cells = with_ratios(summarize_cells(rows), rows)
    stj = cells[(cells["benchmark"] == "SystemTextCaseInsensitive_Camel") & (cells["isa_requested"] == "native")].iloc[
        0
    ]
    aa = cells[(cells["benchmark"] == "single-newtonsoft" + AA_SUFFIX) & (cells["isa_requested"] == "native")].iloc[0]
    assert aa["ratio_ci99_lower"] <= 1 <= aa["ratio_ci99_upper"] and aa["ratio"] == pytest.approx(1.0, abs=0.03)
    # the interleaved design pairs separate processes, each with its own ±10% speed: a much wider interval
    interleaved = execute_run(
        dataclasses.replace(smoke_options, run_id="interleaved"),
        FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1),
    )
    other_rows = load_run(interleaved.directory).rows
    other = with_ratios(summarize_cells(other_rows), other_rows)
    same = other[(other["benchmark"] == "SystemTextCaseInsensitive_Camel") & (other["isa_requested"] == "native")].iloc[
        0
    ]
    assert 0 < stj["ratio_rel_ci99"] < same["ratio_rel_ci99"] / 3
    assert math.isclose(stj["ratio"], 0.5, rel_tol=0.05)  # System.Text.Json over the 2× slower Newtonsoft baseline


def test_a_resumed_paired_run_skips_the_processes_that_finished(paired_run):
    summary, _, options = paired_run
    again = FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1)
    execute_run(dataclasses.replace(options, resume=True), again)
    assert again.cells_run == []


def test_the_report_names_each_groups_design_and_its_aa_ratio(paired_run):
    from analysis.render.writer import write_report

    summary, _, _ = paired_run
    text = pathlib.Path(write_report(summary.directory)).read_text()
    assert "| Design |" in text and "| paired |" in text and "A/A ratios contain 1" in text


def test_the_design_comparison_sets_paired_ratios_beside_separate_process_ones(smoke_options, tmp_path):
    from analysis.render.writer import write_design_comparison

    profiles = tmp_path / "profiles.toml"  # four rounds: a ratio needs three pairs for the comparison
    profiles.write_text(
        smoke_options.profiles_file.read_text().replace(
            "stopping = { min_rounds = 2, max_rounds = 2 }", "stopping = { min_rounds = 4, max_rounds = 4 }", 1
        )
    )
    runs = [
        execute_run(
            dataclasses.replace(smoke_options, run_id=design, design=design, profiles_file=profiles),
            FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1),
        ).directory
        for design in ("paired", "interleaved")
    ]
    text = write_design_comparison(runs, tmp_path / "designs").read_text()
    table = text[text.index("## Does the method move the ratios?") :]
    assert "| paired | interleaved | paired vs interleaved |" in table
    assert "000:SystemTextCaseInsensitive_Camel@native/10.0.12 |" in table and "(A/A)" in table
    assert " of 6 comparisons overlap" in table  # 3 ratios × 2 levels; the A/A copies have nothing to compare with
    summary_table = text[: text.index("## Does the method")]
    assert "| paired | 6 |" in summary_table and "| interleaved | 6 |" in summary_table  # A/A copies are not judged on


def test_job_settings_can_be_overridden_from_the_command_line_and_reach_the_lab():
    from harness.model.errors import ConfigError, UnknownNameError
    from harness.planning.plan_parts import with_overrides

    job = with_overrides(JobSettings(burst_ms=20, burst_rounds=15), ["fresh_input_rounds=1", "burst_ms=50"])
    assert (job.burst_ms, job.burst_rounds, job.fresh_input_rounds) == (50, 15, 1)
    assert job.to_args()[-2:] == ["--fresh-input-rounds", "1"]
    with pytest.raises(UnknownNameError, match="did you mean 'burst_ms'"):
        with_overrides(job, ["burstms=5"])
    with pytest.raises(ConfigError, match="positive integer"):
        with_overrides(job, ["burst_ms=0"])
    with pytest.raises(ConfigError, match="must be a positive integer") as not_a_number:
        with_overrides(job, ["burst_ms=-3"])
    assert "--job burst_ms=20" in not_a_number.value.hint
    # the collection before each burst is the one setting that may be 0, and no more than 2
    assert with_overrides(job, ["burst_collect_generation=0"]).to_args()[-2:] == ["--burst-collect-generation", "0"]
    with pytest.raises(ConfigError, match=r"integer 0\.\.2"):
        with_overrides(job, ["burst_collect_generation=3"])
    with pytest.raises(ConfigError, match=r"must be an integer 0\.\.2") as not_a_number:
        with_overrides(job, ["burst_collect_generation=abc"])
    assert "--job burst_collect_generation=2" in not_a_number.value.hint


def test_a_paired_shared_run_measures_every_group_of_a_level_in_one_process_per_round(smoke_options):
    backend = FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1)
    options = dataclasses.replace(smoke_options, design="paired-shared", run_id="paired-shared")
    summary = execute_run(options, backend)
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    steady = [r for r in rows if r["measure"] == "steady"]
    # write-up 000's group (3 cells + A/A) and 001's (2 cells + A/A) share one process per level and round
    assert len(backend.slots) == 2 * 2 and len(steady) == 2 * 2 * (4 + 3)
    assert {r["design"] for r in steady} == {"paired-shared"} and {r["process_cells"] for r in steady} == {7}
    assert all("shared__dotnet__" in r["log_path"] for r in steady)
    assert set(backend.member_blocks) == {
        (4, 3)
    }  # each group's bursts back to back: 000's four cells, then 001's three
    one = [r for r in steady if r["round_index"] == 1 and r["isa_requested"] == "native"]
    assert {r["experiment"] for r in one} == {"000", "001"} and len({r["log_path"] for r in one}) == 1
    assert sum(r["duration_s"] for r in one) == pytest.approx(
        2.0, abs=0.05
    )  # one process's 2 s, split 7 ways (rounded)
    loaded = load_run(summary.directory).rows
    cells = with_ratios(summarize_cells(loaded), loaded)
    stj = cells[(cells["benchmark"] == "SystemTextCaseInsensitive_Camel") & (cells["isa_requested"] == "native")]
    assert math.isclose(stj.iloc[0]["ratio"], 0.5, rel_tol=0.05)  # each group's ratio inside its processes
    aa = cells[cells["benchmark"].str.endswith(AA_SUFFIX)]
    assert len(aa) == 4 and ((aa["ratio_ci99_lower"] <= 1) & (1 <= aa["ratio_ci99_upper"])).all()
    again = FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1)
    execute_run(dataclasses.replace(options, resume=True), again)
    assert again.cells_run == []


def test_a_pipelined_run_hands_each_process_over_and_warms_the_one_it_guesses_comes_next(smoke_options):
    backend = FakeBackend(FIXTURES / "dotnet-cell", time_scale={"newtonsoft-default": 2.0}, process_spread=0.1)
    options = dataclasses.replace(smoke_options, design="paired-pipelined", run_id="pipelined")
    cpus = sorted(os.sched_getaffinity(0))
    if len(cpus) < 2:  # the process warms beside the lab's CPU: a run with one CPU is refused before it starts
        with pytest.raises(PinningError, match="harness's CPU"):
            execute_run(dataclasses.replace(options, lab_cpuset=str(cpus[0])), backend)
        return
    lab, harness = str(cpus[-1]), str(cpus[0])
    summary = execute_run(dataclasses.replace(options, lab_cpuset=lab, harness_cpuset=harness), backend)
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    steady = [r for r in rows if r["measure"] == "steady"]
    assert len(backend.slots) == 2 * 2 * 2 and {r["design"] for r in steady} == {"paired-pipelined"}
    assert {r["cpuset"] for r in steady} == {lab}
    assert [warm for warm, _ in backend.handovers] == [harness] * len(backend.slots)
    # each guess is the next process in the run (the same group's next round), or none after a group's last round
    guesses = [guess[:1] if guess else None for _, guess in backend.handovers]  # a process is named by its first cell
    assert guesses[0::2] == backend.slots[1::2] and guesses[1::2] == [None] * 4
    # a lab whose paired verb cannot be handed over is run as paired, and its rows say so
    labs = {name: dataclasses.replace(spec, paired_handoff=False) for name, spec in load_labs().items()}
    plain = FakeBackend(FIXTURES / "dotnet-cell")
    with mock.patch("harness.planning.run_plan.load_labs", return_value=labs):
        again = execute_run(dataclasses.replace(options, lab_cpuset=lab, harness_cpuset=harness, run_id="plain"), plain)
    rows = [json.loads(line) for line in (again.directory / "results.jsonl").read_text().splitlines()]
    assert {r["design"] for r in rows if r["measure"] == "steady"} == {"paired"} and plain.handovers == []
