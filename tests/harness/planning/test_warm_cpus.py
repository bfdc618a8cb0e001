"""Where the paired-pipelined design warms its processes (harness/planning/warm_cpus.py): the harness's CPU or
--warm-cpuset; with none, a profile's pipelined design runs as paired and says why, and a design or a warm CPU set the
user named is refused with the fix, never replaced."""

import pytest

from harness.model.errors import PinningError
from harness.planning.designs import DESIGNS
from harness.planning.warm_cpus import NO_WARM_CPU, plan_warm_cpus

PIPELINED = DESIGNS["paired-pipelined"]


def test_a_pipelined_run_warms_on_the_harness_cpu_or_the_one_named():
    warm = plan_warm_cpus(PIPELINED, named=False, lab=(1,), harness=(0,))
    assert warm.design is PIPELINED and warm.cpus == (0,) and warm.cpuset == "0" and warm.note == ""
    named = plan_warm_cpus(PIPELINED, named=True, lab=(3,), harness=(0,), warm_option="1-2")
    assert named.cpus == (1, 2) and named.cpuset == "1-2"


def test_other_designs_warm_on_the_lab_cpu_and_need_nothing_beside_it():
    for name in ("paired", "interleaved", "sequential", "paired-shared"):
        warm = plan_warm_cpus(DESIGNS[name], named=True, lab=(0,), harness=None)
        assert warm.design is DESIGNS[name] and warm.cpus is None and warm.cpuset is None and warm.note == ""


@pytest.mark.parametrize(
    ("harness", "option", "reason"),
    [
        (None, None, "no CPU beside the lab's 0"),  # a one-CPU machine
        ((0,), NO_WARM_CPU, "no CPU beside the lab's 0"),  # a host whose engine has one CPU
        ((0,), None, "the harness's CPU 0 includes the lab's CPU 0"),  # --harness-cpuset on the lab's
    ],
)
def test_a_profiles_pipelined_design_with_nowhere_to_warm_runs_as_paired_and_says_why(harness, option, reason):
    warm = plan_warm_cpus(PIPELINED, named=False, lab=(0,), harness=harness, warm_option=option)
    assert warm.design is DESIGNS["paired"] and warm.cpus is None
    assert warm.note.startswith("the profile's paired-pipelined design runs as paired") and reason in warm.note


def test_a_named_design_or_warm_cpu_set_with_nowhere_to_warm_is_refused_with_the_fix():
    with pytest.raises(PinningError, match="no CPU beside the lab's 0") as refused:
        plan_warm_cpus(PIPELINED, named=True, lab=(0,), harness=None)
    assert "--design paired" in refused.value.hint and "--warm-cpuset" in refused.value.hint
    with pytest.raises(PinningError, match="--warm-cpuset 1 includes the lab's CPU 1"):
        plan_warm_cpus(PIPELINED, named=False, lab=(1,), harness=(0,), warm_option="1")
    with pytest.raises(PinningError, match="malformed CPU set"):
        plan_warm_cpus(PIPELINED, named=False, lab=(1,), harness=(0,), warm_option="zero")
