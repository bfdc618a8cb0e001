import pytest

from harness.errors import UnknownNameError
from harness.experiments import load_experiments
from harness.isa import load_isa_table
from harness.plan import datasets_of, plan_cells


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
