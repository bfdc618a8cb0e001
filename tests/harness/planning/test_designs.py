import dataclasses

from harness.model.cells import Cell
from harness.model.folder.records import DEFAULT_RUNTIME, SINGLE_SHOT
from harness.planning.designs import (
    DESIGNS,
    DuetDesign,
    InterleavedDesign,
    PairedSharedDesign,
    SequentialDesign,
    process_groups,
)


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
    assert list(DESIGNS) == ["sequential", "interleaved", "duet", "paired", "paired-shared", "paired-pipelined"]


def test_paired_shared_units_join_a_level_and_runtimes_groups_of_shareable_cells():
    cells = (
        _cells("native", "g1")
        + _cells("native", "g2")
        + _cells("native", "one", ("base",))  # a group of one cell: a unit of its own
        + _cells("scalar", "g1")
        + [dataclasses.replace(c, runtime="8.0.0") for c in _cells("native", "g3")]
        + [dataclasses.replace(c, measure=SINGLE_SHOT) for c in _cells("native", "shots")]
        + [dataclasses.replace(c, lab="node") for c in _cells("native", "g4")]
    )
    units = PairedSharedDesign().units(cells, lambda c: c.lab == "dotnet")
    by_name = {u.name: {(c.group, c.benchmark) for c in u.cells} for u in units}
    assert list(by_name) == [
        "native/dotnet/shared",
        "native/000/one",
        "scalar/dotnet/shared",
        "native/dotnet@8.0.0/8.0.0/shared",
        "native/000/shots",
        "native/000/g4",
    ]
    assert {g for g, _ in by_name["native/dotnet/shared"]} == {"g1", "g2"}
    assert len(by_name["native/dotnet/shared"]) == 10
    assert process_groups(units[0].cells) == [
        ("native", "000", "g1", DEFAULT_RUNTIME),
        ("native", "000", "g2", DEFAULT_RUNTIME),
    ]


def test_a_group_with_one_cell_kept_apart_keeps_a_process_of_its_own_whole():
    cells = _cells("native", "g1") + _cells("native", "g2") + _cells("native", "apart")
    units = PairedSharedDesign().units(cells, lambda c: c.benchmark != "a" or c.group != "apart")
    by_name = {u.name: {(c.group, c.benchmark) for c in u.cells} for u in units}
    assert list(by_name) == ["native/dotnet/shared", "native/000/apart"]
    assert len(by_name["native/000/apart"]) == 5  # the whole group, so its ratios stay within one process
    assert {g for g, _ in by_name["native/dotnet/shared"]} == {"g1", "g2"}


def test_the_dotnet_labs_per_call_options_keep_their_groups_apart():
    from harness.config.lab.labs import load_labs

    lab = load_labs()["dotnet"]
    cell = _cells(names=("x",))[0]
    per_call = [
        dataclasses.replace(cell, variant=v)
        for v in ("stj-case-insensitive-options-per-call", "stj-default+options_per_call=true")
    ]
    assert all(lab.shares_process(c) and not lab.shares_with_other_groups(c) for c in per_call)
    assert lab.shares_with_other_groups(dataclasses.replace(cell, variant="stj-case-insensitive"))
    assert lab.shares_with_other_groups(dataclasses.replace(cell, variant="stj-default+options_per_call=false"))


def test_a_paired_shared_round_is_one_process_of_all_its_cells_in_a_fresh_order():
    cells = _cells("native", "g1") + _cells("native", "g2")
    (slot,) = PairedSharedDesign().round(cells, 1, ("1",))
    (placement,) = slot
    assert sorted(c.cell_id for c in placement.cells) == sorted(c.cell_id for c in cells)
    assert placement.cpuset == "1"
    (again,) = PairedSharedDesign().round(cells, 1, ("1",))
    assert [c.cell_id for c in again[0].cells] == [c.cell_id for c in placement.cells]
