"""CPU hygiene on fake sysfs/procfs trees: isolated CPUs chosen by default, governor, turbo and SMT findings with
fixes."""

import pathlib

import pandas as pd
import pytest

from analysis.compute.noise import cpu_hygiene_markdown, noise_markdown
from harness.host.cpu_hygiene import check_cpu_hygiene, plan_and_check, plan_host_cpus
from harness.host.environment import system_warnings
from harness.host.host_cpus import cmdline_cpulist, parse_cpulist, read_host_cpus
from harness.planning.pinning import plan_cpus
from tests.harness.model.test_environment_record import environment

CPU = "devices/system/cpu"


class FakeHost:
    """A sysfs and a procfs root under tmp_path, written file by file."""

    def __init__(self, root: pathlib.Path, cpus: int = 8) -> None:
        self.sys = root / "sys"
        self.proc = root / "proc"
        self.write(f"{CPU}/online", f"0-{cpus - 1}")
        self.write(f"{CPU}/isolated", "")
        (self.proc / "self").mkdir(parents=True)
        (self.proc / "cmdline").write_text("BOOT_IMAGE=/vmlinuz root=/dev/sda1 ro quiet\n")
        (self.proc / "self" / "cgroup").write_text("0::/user.slice/session-1.scope\n")
        self.write("fs/cgroup/cpuset.cpus.effective", f"0-{cpus - 1}")  # only the root cgroup has the file

    def write(self, relative: str, text: str) -> None:
        path = self.sys / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text + "\n")

    def governor(self, cpu: int, name: str) -> None:
        self.write(f"{CPU}/cpu{cpu}/cpufreq/scaling_governor", name)

    def siblings(self, cpu: int, siblings: str) -> None:
        self.write(f"{CPU}/cpu{cpu}/topology/thread_siblings_list", siblings)

    def check(self, lab: str | None = None, lab_count: int = 1, affinity=(0, 1, 2, 3, 4, 5, 6, 7)):
        host = read_host_cpus(str(self.sys), str(self.proc), affinity=affinity)
        plan = plan_host_cpus(lab, None, lab_count, host)
        return check_cpu_hygiene(plan, host, str(self.sys))


@pytest.fixture
def fake(tmp_path):
    return FakeHost(tmp_path)


def _kinds(hygiene):
    return [f.kind for f in hygiene.findings]


def test_kernel_cpulists_parse_ranges_strides_and_the_empty_mask():
    assert parse_cpulist("2-3,6") == (2, 3, 6)
    assert parse_cpulist("") == ()
    assert parse_cpulist("0-7:2/4") == (0, 1, 4, 5)
    with pytest.raises(ValueError):
        parse_cpulist("two")
    assert cmdline_cpulist("ro isolcpus=nohz,domain,managed_irq,2-3 nohz_full=2-3", "isolcpus") == (2, 3)
    assert cmdline_cpulist("ro quiet", "nohz_full") is None


def test_isolated_cpus_are_the_lab_default_and_the_harness_stays_off_them(fake):
    fake.write(f"{CPU}/isolated", "2-3")
    fake.write(f"{CPU}/nohz_full", "2-3")
    # isolcpus takes the isolated CPUs out of every process's affinity, not out of its cgroup's cpuset
    hygiene = fake.check(affinity=(0, 1, 4, 5, 6, 7))
    assert hygiene.plan.lab == (3,) and hygiene.plan.harness == (0,)
    assert "not-isolated" not in _kinds(hygiene) and "tick" not in _kinds(hygiene)
    assert hygiene.to_dict()["isolated_cpus"] == [2, 3]
    assert hygiene.lines()[0] == "CPUs: lab on 3, harness on 0; isolated: 2-3, nohz_full: 2-3"
    duet = fake.check(lab_count=2, affinity=(0, 1, 4, 5, 6, 7))
    assert duet.plan.lab == (2, 3) and duet.plan.harness == (0,)


def test_the_harness_takes_a_non_isolated_cpu_even_when_an_isolated_one_is_lower(fake):
    fake.write(f"{CPU}/isolated", "1-3")
    hygiene = fake.check()
    assert hygiene.plan.lab == (3,) and hygiene.plan.harness == (0,)
    fake.write(f"{CPU}/isolated", "0,7")
    assert fake.check().plan.harness == (1,)


def test_without_isolated_cpus_the_choice_is_todays(fake):
    hygiene = fake.check()
    assert (
        hygiene.plan
        == plan_cpus(None, None, allowed=set(range(8)))
        == plan_cpus(None, None, allowed=set(range(8)), reserved=())
    )
    assert hygiene.plan.lab == (7,) and hygiene.plan.harness == (0,)
    finding = hygiene.findings[0]
    assert finding.kind == "not-isolated" and "isolcpus=7 nohz_full=7" in finding.fix
    every = fake.check(lab_count=8)
    assert every.findings[0].kind == "not-isolated" and "isolcpus must leave one CPU" in every.findings[0].fix


def test_the_kernel_command_line_stands_in_for_a_missing_isolated_file(fake):
    (fake.sys / CPU / "isolated").unlink()
    (fake.proc / "cmdline").write_text("ro isolcpus=domain,5-6 nohz_full=5-6\n")
    host = read_host_cpus(str(fake.sys), str(fake.proc), affinity=(0, 1, 2, 3, 4, 7))
    assert host.isolated == (5, 6) and host.nohz_full == (5, 6)
    assert plan_host_cpus(None, None, 1, host).lab == (6,)


def test_isolated_cpus_the_cgroup_does_not_allow_are_not_used_and_the_finding_says_why(fake):
    fake.write(f"{CPU}/isolated", "6-7")
    fake.write("fs/cgroup/user.slice/cpuset.cpus.effective", "0-6")
    hygiene = fake.check(lab_count=2, affinity=(0, 1, 2, 3, 4, 5))
    assert hygiene.plan.lab == (5, 6)  # only one isolated CPU usable: today's choice among the usable ones
    finding = next(f for f in hygiene.findings if f.kind == "not-isolated")
    assert "may not use 7 (its cgroup cpuset)" in finding.what


def test_a_cpuset_outside_the_isolated_set_is_reported_with_the_isolated_one(fake):
    fake.write(f"{CPU}/isolated", "2-3")
    hygiene = fake.check(lab="5")
    assert hygiene.plan.lab == (5,)
    assert hygiene.findings[0].kind == "not-isolated" and hygiene.findings[0].fix.endswith("--cpuset 3")


def test_an_isolated_lab_cpu_that_still_ticks_is_reported(fake):
    fake.write(f"{CPU}/isolated", "3")
    fake.write(f"{CPU}/nohz_full", "(null)")
    tick = [f for f in fake.check().findings if f.kind == "tick"]
    assert len(tick) == 1 and 's/^GRUB_CMDLINE_LINUX="/&nohz_full=3 /' in tick[0].fix


def test_too_few_isolated_cpus_for_the_design_fall_back_and_the_fix_widens_the_set(fake):
    fake.write(f"{CPU}/isolated", "3")
    hygiene = fake.check(lab_count=2)
    assert hygiene.plan.lab == (6, 7)
    finding = hygiene.findings[0]
    assert finding.kind == "not-isolated" and "1 isolated one(s) are usable" in finding.what
    assert "isolcpus=3,6-7 nohz_full=3,6-7" in finding.fix


def test_the_governor_is_read_on_the_lab_cpu_not_cpu0(fake):
    fake.governor(0, "performance")
    fake.governor(7, "powersave")
    hygiene = fake.check()
    governor = [f for f in hygiene.findings if f.kind == "governor"]
    assert len(governor) == 1 and governor[0].cpu == 7
    assert governor[0].fix == "cpupower frequency-set -g performance"
    assert governor[0].alternative == "echo performance | tee /sys/devices/system/cpu/cpu7/cpufreq/scaling_governor"
    assert "CPU 7: governor powersave" in hygiene.lines()[1]
    fake.governor(7, "performance")
    fake.governor(0, "powersave")
    assert "governor" not in _kinds(fake.check())


def test_turbo_on_is_a_finding_with_its_switch(fake):
    fake.write(f"{CPU}/intel_pstate/no_turbo", "0")
    turbo = [f for f in fake.check().findings if f.kind == "turbo"]
    assert [f.fix for f in turbo] == ["echo 1 > /sys/devices/system/cpu/intel_pstate/no_turbo"]
    fake.write(f"{CPU}/intel_pstate/no_turbo", "1")
    assert "turbo" not in _kinds(fake.check())


def test_cpufreq_boost_is_the_switch_without_intel_pstate(fake):
    fake.write(f"{CPU}/cpufreq/boost", "1")
    hygiene = fake.check()
    assert [f.fix for f in hygiene.findings if f.kind == "turbo"] == ["echo 0 > /sys/devices/system/cpu/cpufreq/boost"]
    assert hygiene.to_dict()["turbo"] is True


def test_an_online_smt_sibling_is_a_finding_with_the_command_that_takes_it_offline(fake):
    fake.siblings(7, "3,7")
    fake.write(f"{CPU}/cpu3/online", "1")
    hygiene = fake.check()
    smt = [f for f in hygiene.findings if f.kind == "smt-sibling"]
    assert len(smt) == 1 and smt[0].cpu == 7
    assert smt[0].fix == "echo 0 > /sys/devices/system/cpu/cpu3/online"
    assert "SMT sibling 3 online" in hygiene.lines()[1]
    fake.write(f"{CPU}/cpu3/online", "0")
    hygiene = fake.check()
    assert "smt-sibling" not in _kinds(hygiene) and "SMT sibling 3 offline" in hygiene.lines()[1]


def test_two_lab_cpus_on_one_core_are_reported(fake):
    fake.siblings(6, "6-7")
    fake.siblings(7, "6-7")
    assert _kinds(fake.check(lab_count=2)).count("smt-shared") == 1


def test_a_host_without_cpufreq_or_topology_reports_not_exposed_without_findings_about_them(fake):
    hygiene = fake.check()
    assert hygiene.turbo is None
    assert hygiene.lines()[1] == "CPU 7: governor not exposed, SMT siblings not exposed, turbo not exposed"
    assert _kinds(hygiene) == ["not-isolated"]


def test_an_empty_sysfs_does_not_crash(tmp_path):
    plan, hygiene = plan_and_check(None, None, 1, sys_root=str(tmp_path / "sys"), proc_root=str(tmp_path / "proc"))
    record = hygiene.to_dict()
    assert (
        record["isolated_cpus"] is None and record["nohz_full_cpus"] is None and record["cpus"][0]["governor"] is None
    )
    assert "isolated: not exposed" in hygiene.lines()[0]


def test_the_cpu0_warnings_give_way_to_the_lab_cpu_findings():
    env = {"governor": "powersave", "turbo": True, "smt_active": True, "isolated_cpus": None, "hypervisor": True}
    assert len(system_warnings(env)) == 5
    assert system_warnings({**env, "cpu_hygiene": {}}) == [system_warnings(env)[0]]


def test_the_report_lists_cpus_and_findings_and_old_runs_still_render(fake):
    fake.write(f"{CPU}/isolated", "2-3")
    fake.governor(3, "powersave")
    env = environment(cpu_hygiene=fake.check(affinity=(0, 1)).to_dict(), warnings=[])
    lines = cpu_hygiene_markdown(env)
    assert lines[0] == "- CPUs: lab on 3, harness on 0; isolated: 2-3, nohz_full: not exposed."
    assert lines[1].startswith("- CPU 3 (isolated): governor powersave")
    assert "fix: `cpupower frequency-set -g performance` (or: `echo performance | tee" in lines[2]
    cells = pd.DataFrame({"status": ["ok"], "between_process_cv": [0.01], "within_rel_ci99": [0.002]})
    rows = pd.DataFrame({"status": ["ok"]})
    assert "Risk: CPU 3's governor is 'powersave'" in noise_markdown(rows, cells, [], env)
    old = noise_markdown(rows, cells, [], environment(cpu_hygiene=None, warnings=["CPU governor is 'powersave'"]))
    assert "Risk: CPU governor is 'powersave'" in old and "CPUs: lab on" not in old
