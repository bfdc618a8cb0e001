"""The run budget: shares of the time left, the round rule, and whole runs on a simulated clock."""

import dataclasses
import json
from collections import Counter
from types import SimpleNamespace

import pytest

from harness.backends.fake import FakeBackend
from harness.backends.fake_clock import FakeClock
from harness.config.experiment.profiles import BudgetSpec, load_profiles
from harness.model.cells import JobSettings
from harness.planning.estimate import process_seconds
from harness.planning.run_plan import resolve_plan
from harness.session.rounds.budget import UNKNOWN_PROCESS_S, affordable_rounds, round_fits, typical_process_s
from harness.session.runner import execute_run


def test_affordable_rounds_scale_this_unit_and_every_later_one_alike():
    # 120 s left, this unit's rounds cost 6 s and one round of every later unit 14 s: 6 rounds each.
    assert affordable_rounds(120.0, 0, 6.0, 14.0) == pytest.approx(6.0)
    # Two rounds already run count at their cost: 108 s left after them still affords 6 in all.
    assert affordable_rounds(108.0, 2, 6.0, 14.0) == pytest.approx(6.0)
    assert affordable_rounds(-50.0, 0, 6.0, 14.0) == 0.0  # past the budget: none (the floor rounds still run)
    assert affordable_rounds(60.0, 3, 10.0, 0.0) == pytest.approx(9.0)  # the last unit may use what is left


def test_a_round_runs_while_it_stays_within_the_affordable_rounds_to_the_nearest_round():
    assert round_fits(5, 5.6)  # 5.6 rounds affordable buy a sixth
    assert not round_fits(5, 5.4)
    assert round_fits(0, 0.5) and not round_fits(1, 1.4)


def test_a_cell_not_run_yet_is_costed_at_the_jobs_estimate_not_at_whichever_cells_ran_first():
    job = JobSettings(warmup_count=1, iteration_count=10, iteration_time_ms=100)
    rows = [SimpleNamespace(duration_s=d, measure="steady") for d in (4.0, 4.0, 9.0)] + [
        SimpleNamespace(duration_s=60.0, measure="cold")
    ]
    assert typical_process_s(rows, job) == pytest.approx(0.8 + 16 * 0.1 * 1.1)  # overhead, 5 pilot + 11 iterations
    automatic = JobSettings()
    assert typical_process_s(rows, automatic) == 4.0, "no estimate: the median of the steady processes so far"
    assert typical_process_s([], automatic) == UNKNOWN_PROCESS_S


def test_a_budget_must_be_positive_and_keep_a_round():
    with pytest.raises(ValueError):
        BudgetSpec(0, 2)
    with pytest.raises(ValueError):
        BudgetSpec(10, 0)


def test_the_default_profile_has_a_budget_within_the_hour():
    budget = load_profiles()["default"].budget
    assert budget is not None and budget.minutes < 60 and budget.floor_rounds >= 5


#: The smoke job's estimated process time (harness/planning/estimate.py), which the budget costs cells not run yet at.
SMOKE_PROCESS_S = process_seconds(load_profiles()["smoke"].job)


def _budget_run(smoke_options, tmp_path, budget: str | None, process_s: float = SMOKE_PROCESS_S, **options):
    """The smoke cells (four groups: 3, 2, 3 and 2 cells) under an unreachable target, so only max_rounds (10), the
    budget or its floor stop them; every fake process takes `process_s` on the backend's simulated clock."""
    profiles = tmp_path / "profiles.toml"
    rule = "stopping = { min_rounds = 2, max_rounds = 10, target_rel_ci = 0.0001 }" + (
        f"\nbudget = {budget}" if budget else ""
    )
    profiles.write_text(
        smoke_options.profiles_file.read_text().replace("stopping = { min_rounds = 2, max_rounds = 2 }", rule, 1)
    )
    clock = FakeClock()
    backend = FakeBackend(
        smoke_options.datasets_dir.parent / "tests" / "fixtures" / "dotnet-cell",
        process_spread=0.1,
        clock=clock,
        process_s=process_s,
    )
    summary = execute_run(dataclasses.replace(smoke_options, profiles_file=profiles, clock=clock, **options), backend)
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    rounds = {
        (r["isa_requested"], r["group"]): max(
            x["round_index"] for x in rows if (x["isa_requested"], x["group"]) == (r["isa_requested"], r["group"])
        )
        for r in rows
    }
    groups = [json.loads(line) for line in (summary.directory / "groups.jsonl").read_text().splitlines()]
    return summary, rounds, groups, clock


def test_without_a_budget_groups_that_cannot_reach_the_target_run_to_max_rounds(smoke_options, tmp_path):
    _, rounds, groups, _ = _budget_run(smoke_options, tmp_path, None)
    assert set(rounds.values()) == {10}
    assert {g["state"] for g in groups} == {"imprecise"}


def test_a_budget_shares_the_time_fairly_across_groups_and_holds(smoke_options, tmp_path):
    # 10 cells × 6 rounds at the estimated process time: the budget buys 6 rounds per group, not 10 for the first ones
    # and
    # 2 for the last.
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    summary, rounds, groups, clock = _budget_run(
        smoke_options, tmp_path, f"{{ minutes = {minutes}, floor_rounds = 2 }}"
    )
    assert set(rounds.values()) == {6}, rounds
    assert (
        clock.now <= 60 * minutes + 1.5 * SMOKE_PROCESS_S
    )  # within the budget, give or take half of the largest round
    assert Counter(g["state"] for g in groups) == {"budget": 4}
    run = json.loads((summary.directory / "run.json").read_text())
    assert run["budget"] == {
        "minutes": minutes,
        "floor_rounds": 2,
        "priority": "in-turn",
        "probe_groups": 0,
        "probe_rounds": 3,
        "until_decided": False,
    }


def test_processes_slower_than_estimated_still_hold_the_budget_as_far_as_the_floor_allows(smoke_options, tmp_path):
    # Twice the estimate: the first groups overspend, the later ones are held to fewer rounds (never below the floor),
    # and the run ends within a round of the budget.
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    _, rounds, _, clock = _budget_run(
        smoke_options, tmp_path, f"{{ minutes = {minutes}, floor_rounds = 2 }}", process_s=2 * SMOKE_PROCESS_S
    )
    assert all(n >= 2 for n in rounds.values()) and min(rounds.values()) < max(rounds.values())
    assert clock.now <= 60 * minutes + 3 * 2 * SMOKE_PROCESS_S


def test_a_budget_too_small_for_the_floor_still_runs_the_floor_rounds(smoke_options, tmp_path, capsys):
    _, rounds, groups, clock = _budget_run(smoke_options, tmp_path, "{ minutes = 0.1, floor_rounds = 3 }")
    assert set(rounds.values()) == {3}
    assert {g["state"] for g in groups} == {"budget"} and all(g["rounds"] == 3 for g in groups)
    assert "budget after 3 round(s)" in capsys.readouterr().err


def test_budget_zero_on_the_command_line_turns_the_profiles_budget_off(smoke_options, tmp_path):
    _, rounds, _, _ = _budget_run(smoke_options, tmp_path, "{ minutes = 0.1, floor_rounds = 3 }", budget_min=0)
    assert set(rounds.values()) == {10}


def test_the_plan_states_the_budget(smoke_options):
    plan = resolve_plan(dataclasses.replace(smoke_options, profile="default", experiments=("001",), benchmarks=None))
    assert "run budget 57 min" in plan.estimate()
    assert (
        resolve_plan(
            dataclasses.replace(smoke_options, profile="default", experiments=("001",), benchmarks=None, budget_min=0)
        ).budget
        is None
    )


def test_open_claims_priority_gives_the_floor_to_every_group_then_the_rest_to_groups_with_undecided_claims(
    smoke_options, tmp_path
):
    # Same budget as the fair-share test (6 rounds per group in turn). The claims are read at native only (000's
    # myclass, 001's single); with the fake processes' 10% spread, myclass's stays undecided, single's is decided
    # early (the fake ratio is far from the published one), and the scalar groups decide no claim.
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    summary, rounds, groups, clock = _budget_run(
        smoke_options, tmp_path, f'{{ minutes = {minutes}, floor_rounds = 2, priority = "open-claims" }}'
    )
    others = [n for g, n in rounds.items() if g != ("native", "myclass")]
    assert rounds[("native", "myclass")] == 10, rounds  # every round it wanted, up to max_rounds
    assert min(others) >= 2 and max(others) - min(others) <= 1, rounds  # the rest shared fewest-first
    assert clock.now <= 60 * minutes + 1.5 * SMOKE_PROCESS_S
    assert Counter(g["state"] for g in groups) == {"budget": 3, "imprecise": 1}
    assert json.loads((summary.directory / "run.json").read_text())["budget"]["priority"] == "open-claims"


def test_a_resumed_open_claims_run_measures_only_the_processes_that_had_not_ended(smoke_options, tmp_path):
    # A budget no group reaches: every group runs to max_rounds (10). Drop the last 7 rows as if the run had been
    # stopped there; the resumed run replays the same rounds from the rows and measures exactly those 7 again.
    summary, rounds, _, _ = _budget_run(
        smoke_options, tmp_path, '{ minutes = 1000, floor_rounds = 2, priority = "open-claims" }'
    )
    assert set(rounds.values()) == {10}
    results = summary.directory / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:-7]) + "\n")
    dropped = Counter(json.loads(line)["cell_id"] for line in lines[-7:])
    again = FakeBackend(smoke_options.datasets_dir.parent / "tests" / "fixtures" / "dotnet-cell", process_spread=0.1)
    profiles = tmp_path / "profiles.toml"  # written by _budget_run
    execute_run(
        dataclasses.replace(
            smoke_options, profiles_file=profiles, clock=FakeClock(), resume=True, run_id=summary.directory.name
        ),
        again,
    )
    assert Counter(again.cells_run) == dropped


def test_a_second_run_costs_the_groups_still_to_come_at_what_the_first_run_measured(smoke_options, tmp_path):
    # Processes at twice the job's model: the first run learns it group by group, so its first groups overspend and
    # its last ones are cut short; the second run of the same cells reads the first one's costs (the plan's history)
    # and shares the same budget evenly from the start.
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    budget = f"{{ minutes = {minutes}, floor_rounds = 2 }}"
    slow = 2 * SMOKE_PROCESS_S
    _, first, _, _ = _budget_run(smoke_options, tmp_path, budget, process_s=slow, run_id="first")
    _, second, _, clock = _budget_run(smoke_options, tmp_path, budget, process_s=slow, run_id="second")
    assert max(first.values()) - min(first.values()) > max(second.values()) - min(second.values()), (first, second)
    assert clock.now <= 60 * minutes + 3 * slow


def test_the_noise_probe_plays_a_few_groups_first_and_forecasts_what_the_budget_decides(
    smoke_options, tmp_path, capsys
):
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    summary, rounds, groups, _ = _budget_run(
        smoke_options,
        tmp_path,
        f'{{ minutes = {minutes}, floor_rounds = 3, priority = "open-claims", probe_groups = 2, probe_rounds = 2 }}',
    )
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    probe = json.loads((summary.directory / "noise_probe.json").read_text())
    assert len(probe["groups"]) == 2 and probe["rounds"] == 2
    probed = {(g.split("@")[1].split(" ")[0], g.split("/")[1].split("@")[0]) for g in probe["groups"]}
    probe_rows = [r for r in rows if (r["isa_requested"], r["group"]) in probed and r["round_index"] <= 2]
    assert len(probe_rows) > 0 and rows[: len(probe_rows)] == probe_rows  # the probed groups' rounds came first
    assert probe["seconds"] == pytest.approx(len(probe_rows) * SMOKE_PROCESS_S, rel=0.2)  # one process a row
    assert probe["ratios"] > 0 and probe["forecast_median_rel_ci"] > 0
    assert probe["steering_rounds"] >= 3 and probe["other_rounds"] == 3  # the others get the budget's floor
    assert min(rounds.values()) >= 3  # the probe's rounds counted toward the floor, which still ran
    err = capsys.readouterr().err
    assert "noise probe: 2 groups × 2 processes" in err and "noise probe forecast for the" in err
    assert "this host is noisy" in err  # the fake processes spread 10%: far beyond the 0.01% target
    written = (summary.directory / "noise_probe.json").read_bytes()
    execute_run(
        dataclasses.replace(
            smoke_options,
            profiles_file=tmp_path / "profiles.toml",
            clock=FakeClock(),
            resume=True,
            run_id=summary.directory.name,
        ),
        FakeBackend(smoke_options.datasets_dir.parent / "tests" / "fixtures" / "dotnet-cell", process_spread=0.1),
    )
    assert (summary.directory / "noise_probe.json").read_bytes() == written  # a resume keeps the first probe
    assert "noise probe:" not in capsys.readouterr().err


@pytest.mark.parametrize(
    "budget, why",
    [
        ({"probe_groups": 2, "probe_rounds": 6}, "probe_rounds must be between 2"),
        ({"probe_groups": 2, "probe_rounds": 1}, "probe_rounds must be between 2"),
        ({"probe_groups": -1}, "probe_groups must be 0"),
        ({"probe_groups": 2, "priority": "in-turn"}, "needs priority"),
    ],
)
def test_a_noise_probe_that_cannot_work_is_refused(budget, why):
    spec = {"minutes": 10.0, "floor_rounds": 5, "priority": "open-claims", **budget}
    with pytest.raises(ValueError, match=why):
        BudgetSpec(**spec)


class _SlowBuild(FakeBackend):
    """A fake backend whose builds take ten minutes on the run's clock (an empty image store)."""

    def build_all(self, labs, log_dir) -> None:
        super().build_all(labs, log_dir)
        self.clock.now += 600.0


def test_the_budget_starts_after_the_builds_and_says_how_long_they_took(smoke_options, tmp_path, capsys, monkeypatch):
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    budget = f"{{ minutes = {minutes}, floor_rounds = 2 }}"
    _, quick, _, _ = _budget_run(smoke_options, tmp_path, budget, run_id="built")
    monkeypatch.setattr("tests.harness.session.test_budget.FakeBackend", _SlowBuild)
    _, slow, _, clock = _budget_run(smoke_options, tmp_path, budget, run_id="building")
    assert slow == quick  # ten minutes of builds took no round from the budget
    assert clock.now > 600 + 60 * minutes - 1.5 * SMOKE_PROCESS_S
    assert f"the {minutes:g}-min budget starts now" in capsys.readouterr().err


def test_the_noise_probe_reads_every_group_of_a_shared_process(smoke_options, tmp_path, capsys):
    # Under paired-shared a unit is every group of one level: probing one unit probes both of its groups, each costed
    # at its cells' part of the unit's process.
    minutes = 10 * 6 * SMOKE_PROCESS_S / 60
    summary, rounds, _, _ = _budget_run(
        smoke_options,
        tmp_path,
        f'{{ minutes = {minutes}, floor_rounds = 3, priority = "open-claims", probe_groups = 1, probe_rounds = 2 }}',
        design="paired-shared",
    )
    probe = json.loads((summary.directory / "noise_probe.json").read_text())
    assert len(probe["groups"]) == 2 and len({g.split("@")[1] for g in probe["groups"]}) == 1  # one level's groups
    assert {g.split("/")[0] for g in probe["groups"]} == {"000", "001"}
    assert probe["ratios"] > 0 and probe["forecast_median_rel_ci"] > 0 and probe["claims"] > 0
    assert min(rounds.values()) >= 3
    assert "noise probe: 2 groups × 2 processes" in capsys.readouterr().err
