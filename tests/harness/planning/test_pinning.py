import pytest

from harness.model.cpusets import format_cpuset, parse_cpuset
from harness.model.errors import PinningError
from harness.planning.pinning import plan_cpus


def test_cpusets_parse_and_format_like_taskset():
    assert parse_cpuset("0-2,5") == (0, 1, 2, 5)
    assert format_cpuset((0, 1, 2, 5)) == "0-2,5"
    with pytest.raises(PinningError, match="malformed"):
        parse_cpuset("one")


def test_by_default_the_lab_gets_the_highest_cpu_and_the_harness_the_lowest():
    plan = plan_cpus(None, None, allowed={0, 1})
    assert plan.lab == (1,) and plan.harness == (0,)
    assert plan_cpus(None, None, allowed={3}).harness is None


def test_a_cpu_this_process_may_not_use_is_rejected_with_the_allowed_set():
    with pytest.raises(PinningError) as error:
        plan_cpus("7", None, allowed={0, 1})
    assert "includes 7" in str(error.value)
    assert "0-1" in error.value.hint
