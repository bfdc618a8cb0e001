"""A group's precision and its stopping rule (harness/model/stats/group_precision.py): the one rule the run, the
report's Precision section and the stopping replay all apply."""

from harness.config.experiment.profiles import Stopping
from harness.model.groups import DONE, IMPRECISE, PRECISE, RUNNING
from harness.model.stats.group_precision import GroupPrecision, Ratio, group_state, precision_of

ADAPTIVE = Stopping(min_rounds=3, max_rounds=10, target_rel_ci=0.02, cell_time_cap_s=10.0)


def test_the_baseline_against_itself_a_void_ratio_and_one_without_a_measured_baseline_do_not_count():
    assert Ratio("a", "base", rel_half_width=0.01).counts
    assert not Ratio("base", "base", rel_half_width=0.0).counts
    assert not Ratio("a", "base", void=True, rel_half_width=0.5).counts
    assert not Ratio("a", "base", rel_half_width=None, baseline_measured=False).counts


def test_the_precision_is_the_widest_interval_over_the_ratios_that_count():
    ratios = [
        Ratio("base", "base", rel_half_width=0.0),
        Ratio("a", "base", rel_half_width=0.012),
        Ratio("b", "base", rel_half_width=0.031),
        Ratio("c", "base", void=True, rel_half_width=0.9),  # void: never holds the group back
        Ratio("d", "base", void=True),  # nor does a void one without an interval
    ]
    assert precision_of(ratios) == GroupPrecision(0.031, 2)


def test_one_ratio_without_an_interval_leaves_the_precision_unknown_however_narrow_the_others():
    ratios = [Ratio("a", "base", rel_half_width=0.001), Ratio("b", "base", rel_half_width=None)]
    assert precision_of(ratios) == GroupPrecision(None, 2)


def test_a_group_with_nothing_to_compare_has_no_precision_and_no_comparable_ratio():
    assert precision_of([Ratio("base", "base", rel_half_width=0.0), Ratio("a", "base", void=True)]) == (
        GroupPrecision(None, 0)
    )
    assert precision_of([]) == GroupPrecision(None, 0)


def test_the_target_is_reached_at_or_below_it_and_never_without_a_known_width_or_a_target():
    assert GroupPrecision(0.02, 1).reaches(0.02)
    assert GroupPrecision(0.019, 1).reaches(0.02)
    assert not GroupPrecision(0.0201, 1).reaches(0.02)
    assert not GroupPrecision(None, 1).reaches(0.02)
    assert not GroupPrecision(0.001, 1).reaches(None)


def test_a_group_runs_its_minimum_rounds_even_when_already_precise():
    assert group_state(ADAPTIVE, 2, 1.0, GroupPrecision(0.001, 1), cells=2) == RUNNING
    assert group_state(ADAPTIVE, 3, 1.0, GroupPrecision(0.001, 1), cells=2) == PRECISE


def test_fixed_rounds_are_done_at_the_minimum_whatever_the_precision():
    fixed = Stopping(min_rounds=2, max_rounds=2)
    assert group_state(fixed, 1, 0.0, GroupPrecision(None, 1), cells=2) == RUNNING
    assert group_state(fixed, 2, 0.0, GroupPrecision(0.5, 1), cells=2) == DONE


def test_an_adaptive_group_with_nothing_to_compare_is_done_after_its_minimum():
    assert group_state(ADAPTIVE, 3, 1.0, GroupPrecision(None, 0), cells=2) == DONE


def test_an_imprecise_group_runs_on_until_max_rounds_or_its_time_cap():
    wide = GroupPrecision(0.05, 1)
    assert group_state(ADAPTIVE, 9, 19.9, wide, cells=2) == RUNNING  # cap: 10 s × 2 cells
    assert group_state(ADAPTIVE, 10, 1.0, wide, cells=2) == IMPRECISE  # max_rounds
    assert group_state(ADAPTIVE, 4, 20.0, wide, cells=2) == IMPRECISE  # the time cap, reached exactly
    assert group_state(ADAPTIVE, 4, 20.0, wide, cells=3) == RUNNING  # a bigger group has a bigger cap
    assert group_state(ADAPTIVE, 4, 20.0, GroupPrecision(None, 1), cells=2) == IMPRECISE  # unknown counts as wide
