import pytest

from harness.config.experiment.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.model.errors import UnknownNameError
from harness.planning.plan import claimed_benchmarks, datasets_of, plan_cells


def _levels(*names):
    return load_isa_table().resolve("x64", list(names))


def test_cells_are_ordered_by_isa_level_first():
    experiments = list(load_experiments().values())
    cells = plan_cells(experiments, _levels("native", "scalar"))
    levels = [c.isa_level for c in cells]
    assert levels == sorted(levels, key=["native", "scalar"].index)
    assert len(cells) == 2 * sum(len(e.benchmarks) for e in experiments)


def test_a_benchmark_filter_keeps_the_baselines_it_needs():
    cells = plan_cells([load_experiments()["001"]], _levels("native"), ("file-stj-default",))
    assert [c.benchmark for c in cells] == ["file-stj-default", "file-newtonsoft"]
    assert datasets_of(cells) == ["employee-data"]


def test_an_unknown_benchmark_is_rejected_with_the_valid_names():
    with pytest.raises(UnknownNameError, match="did you mean 'file-stj-default'"):
        plan_cells([load_experiments()["001"]], _levels("native"), ("file-stj-defualt",))


def test_a_variant_filter_selects_its_benchmarks_and_their_baselines():
    cells = plan_cells([load_experiments()["000"]], _levels("native"), variants=("stj-annotated",))
    assert [c.benchmark for c in cells] == ["SystemTextCaseSensitive_Annotated", "NewtonSoftJson_Camel"]


def test_an_unknown_variant_lists_the_variants_the_experiments_use():
    with pytest.raises(UnknownNameError, match="unknown variant 'stj-anotated'.*did you mean 'stj-annotated'") as error:
        plan_cells([load_experiments()["000"]], _levels("native"), variants=("stj-anotated",))
    assert "newtonsoft-default" in error.value.hint


def test_claims_levels_give_each_benchmark_the_levels_its_published_figures_need():
    from harness.planning.plan import levels_by_benchmark

    experiments = list(load_experiments().values())
    table = load_isa_table()
    per_bench = levels_by_benchmark(table, "x64", ["claims"], experiments)
    assert [lvl.name for lvl in per_bench[("004", "ser-string-1-jil")]] == ["no-avx512"]  # H004: an AVX2 laptop CPU
    assert [lvl.name for lvl in per_bench[("003", "serialize-big-stj")]] == ["native"]  # H003: hardware not published
    both = levels_by_benchmark(table, "x64", ["claims", "scalar"], experiments)
    assert [lvl.name for lvl in both[("004", "ser-string-1-newtonsoft")]] == ["no-avx512", "scalar"]
    cells = plan_cells(experiments, list(table.levels_for("x64").values()), per_benchmark=per_bench)
    assert {(c.experiment, c.isa_level) for c in cells} >= {("004", "no-avx512"), ("003", "native")}
    assert not any(c.experiment == "004" and c.isa_level == "native" for c in cells)


def test_only_claimed_benchmarks_leave_out_the_collection_size_no_figure_was_published_for():
    from harness.planning.plan import claimed_benchmarks

    experiments = [load_experiments()["004"]]
    claimed = claimed_benchmarks(experiments)
    cells = plan_cells(experiments, _levels("native"), claimed)
    assert len(cells) == 72
    assert not any(c.dataset == "simple-models-100" for c in cells)


def _runtimes(names, experiments=None):
    from harness.config.lab.labs import load_labs
    from harness.planning.plan import runtimes_by_benchmark

    return runtimes_by_benchmark(load_labs(), names, experiments or list(load_experiments().values()))


def test_claims_runtimes_put_each_figure_on_the_runtime_standing_in_for_its_own():
    per_bench = _runtimes(["claims"])
    assert per_bench[("004", "ser-string-1-jil")] == ["8.0.0"]  # write-up 004 ran .NET 8.0.0
    assert per_bench[("003", "serialize-big-stj")] == ["9.0.20"]  # write-up 003 ran .NET 9
    assert per_bench[("003", "serialize-big-newtonsoft")] == ["9.0.20"]  # the baseline follows its group
    # Write-up 000 ran .NET Core 3.1; its commenter's figures (H000b) stand on 8.0.0.
    assert per_bench[("000", "SystemTextCaseInsensitive_Camel")] == ["3.1.3", "8.0.0"]


def test_sweep_adds_the_sweep_runtimes_for_the_sweep_benchmarks_and_their_baselines_only():
    from harness.config.lab.labs import load_labs

    lab = load_labs()["dotnet"]
    sweep = list(lab.sweep_runtime_names)
    assert sweep == ["3.1.3", "8.0.0", "9.0.20", "10.0.12"]  # one per major version; 8.0.31 only by name or with "all"
    per_bench = _runtimes(["claims", "sweep"])
    assert per_bench[("000", "SystemTextCaseInsensitive_Pascal")] == sweep
    assert per_bench[("000", "NewtonSoftJson_Camel")] == sweep  # baseline of the swept group
    assert len(per_bench[("000", "SystemText_CamelNamingPolicy")]) == 1
    # "all": every build that can measure the steady state (the Native AOT build serves cold starts only).
    assert _runtimes(["all"])[("000", "SystemTextCaseInsensitive_Pascal")] == list(lab.runtimes_measuring("steady"))
    assert "10.0.12-aot" in lab.runtime_names and "10.0.12-aot" not in lab.runtimes_measuring("steady")


def test_a_cold_start_benchmark_pinned_to_the_aot_build_runs_there_only():
    per_bench = _runtimes(["claims"])
    assert per_bench[("005", "cold-ser-stj-sourcegen-aot")] == ["10.0.12-aot"]
    assert per_bench[("005", "cold-ser-stj-sourcegen")] == ["10.0.12"]  # no published figure: the lab's default runtime
    assert _runtimes(["8.0.0"])[("005", "cold-ser-stj-sourcegen-aot")] == []  # named runtimes intersect the pin
    assert (
        "10.0.12-aot" in _runtimes(["all"])[("005", "cold-ser-stj")]
    )  # cold cells may run on every build that measures cold


def test_an_experiment_without_published_figures_keeps_all_its_benchmarks_when_only_claimed():
    experiments = list(load_experiments().values())
    claimed = set(claimed_benchmarks(experiments))
    assert {b for b in load_experiments()["005"].benchmarks} <= claimed
    assert "ser-string-100-jil" not in claimed  # write-up 004 published no 100-model figures


def test_an_unknown_runtime_name_is_rejected_with_the_valid_ones():
    with pytest.raises(UnknownNameError, match="unknown runtime '7.0.0'"):
        _runtimes(["7.0.0"])


def test_cells_carry_their_runtime_and_run_each_runtime_in_one_block_per_level():
    experiments = [load_experiments()["001"]]
    cells = plan_cells(experiments, _levels("native"), runtimes=_runtimes(["8.0.0", "10.0.12"], experiments))
    assert [c.runtime for c in cells] == ["8.0.0"] * 7 + ["10.0.12"] * 7
    assert cells[0].cell_id.endswith("@native/8.0.0") and cells[0].target == "dotnet@8.0.0"


def test_the_plan_says_how_each_budget_priority_gives_the_rounds_beyond_the_floor():
    from harness.config.experiment.profiles import PRIORITIES, BudgetSpec
    from harness.planning.plan_parts import PRIORITY_TEXT, budget_text

    assert set(PRIORITY_TEXT) == set(PRIORITIES) - {"in-turn"}  # a new priority is said in the plan too
    said = {p: budget_text(BudgetSpec(minutes=15.0, floor_rounds=5, priority=p), 6) for p in PRIORITIES}
    assert "undecided claim first" in said["open-claims"]
    assert "forecast to decide the most claims per second" in said["expected-decisions"]
    assert "holds; every group" in said["in-turn"] and all("at least 5 rounds" in text for text in said.values())
