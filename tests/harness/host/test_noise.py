from types import SimpleNamespace

import pytest

from harness.host.noise import CpuTimes, parse_shell_times, process_usage, read_cpu_times, rusage_cpu_s
from harness.model.stats.interference import interference_share

STAT = """cpu  100 0 50 1000 0 0 0 7 0 0
cpu0 60 0 30 500 0 0 0 3 0 0
cpu1 40 5 20 500 1 2 3 4 0 0
intr 12345
"""


def test_cpu_times_sum_the_busy_and_steal_columns_of_the_named_cpus():
    times = read_cpu_times((1,), STAT)
    tick = 1000 / __import__("os").sysconf("SC_CLK_TCK")
    assert times == CpuTimes(busy_ms=(40 + 5 + 20 + 2 + 3) * tick, steal_ms=4 * tick)
    assert read_cpu_times((7,), STAT) is None  # a CPU the file does not list


def test_other_work_is_the_cpus_busy_time_minus_the_process_own():
    rusage = SimpleNamespace(ru_utime=1.5, ru_stime=0.5, ru_nivcsw=42)
    usage = process_usage(2.5, rusage_cpu_s(rusage), CpuTimes(1000.0, 10.0), CpuTimes(3300.0, 60.0), rusage.ru_nivcsw)
    assert (usage.lab_cpu_s, usage.cpu_other_ms, usage.steal_ms, usage.involuntary_context_switches) == (
        2.0,
        300.0,
        50.0,
        42,
    )
    assert process_usage(1.0, None, None, None).cpu_other_ms is None  # unknown stays unknown, never 0


def test_interference_share_counts_other_work_and_steal_against_wall_time():
    assert interference_share(SimpleNamespace(cpu_other_ms=300.0, steal_ms=100.0, duration_s=2.0)) == pytest.approx(0.2)
    assert interference_share(SimpleNamespace(cpu_other_ms=float("nan"), steal_ms=0.0, duration_s=2.0)) is None


def test_a_containers_cpu_time_is_its_shells_children_times():
    # dash's `times`: the shell's own user/system time, then its children's (the lab, once it has been waited for)
    assert parse_shell_times("0m0.000000s 0m0.010000s\n0m1.250000s 0m0.020000s\n") == pytest.approx(1.27)
    assert parse_shell_times("0m0.00s 0m0.00s\n2m3.5s 0m0.5s\n") == pytest.approx(124.0)
    assert parse_shell_times("") is None and parse_shell_times("killed\n") is None
