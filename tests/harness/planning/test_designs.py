from harness.model.cells import Cell
from harness.planning.designs import DESIGNS, DuetDesign, InterleavedDesign, SequentialDesign


def _cells(level="native", group="g", names=("base", "a", "b", "c", "d")):
    return [Cell("000", name, group, "base", "dotnet", f"v-{name}", "ds", "deserialize", level) for name in names]


def test_interleaved_orders_differ_between_rounds_but_repeat_for_the_same_round():
    cells = _cells()
    orders = [[p[0].cell.benchmark for p in InterleavedDesign().round(cells, r, ("1",))] for r in range(1, 7)]
    assert all(sorted(o) == sorted(orders[0]) for o in orders)
    assert len({tuple(o) for o in orders}) > 1
    again = [p[0].cell.benchmark for p in InterleavedDesign().round(cells, 3, ("1",))]
    assert again == orders[2]  # a resumed run lays out the same round the same way


def test_units_are_levels_for_sequential_and_groups_for_the_others():
    cells = _cells("native", "g1") + _cells("native", "g2") + _cells("scalar", "g1")
    assert [u.name for u in SequentialDesign().units(cells)] == ["native", "scalar"]
    assert [u.name for u in InterleavedDesign().units(cells)] == ["native/000/g1", "native/000/g2", "scalar/000/g1"]


def test_duet_pairs_every_benchmark_with_the_baseline_on_the_other_cpu():
    slots = DuetDesign().round(_cells(), 1, ("0", "1"))
    assert len(slots) == 4
    for variant, baseline in slots:
        assert (
            baseline.cell.benchmark == "base"
            and variant.partner == "base"
            and baseline.partner == variant.cell.benchmark
        )
        assert (variant.cpuset, baseline.cpuset) == ("0", "1")
    swapped = DuetDesign().round(_cells(), 2, ("0", "1"))
    assert {(v.cpuset, b.cpuset) for v, b in swapped} == {("1", "0")}


def test_the_registry_names_every_design():
    assert list(DESIGNS) == ["sequential", "interleaved", "duet", "paired"]
