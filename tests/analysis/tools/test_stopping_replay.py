"""The stopping-rule replay: shares one hour's machine time over recorded rounds, by the default rule or claim-aware."""

from __future__ import annotations

from analysis.tools.stopping_replay import RULES, PrefixState, allocate
from harness.config.experiment.profiles import Stopping

STOPPING = Stopping(min_rounds=2, max_rounds=40, target_rel_ci=0.02, cell_time_cap_s=100.0)


def _states(widths: list[float], undecided: list[int], claims: int = 1) -> list[PrefixState]:
    return [PrefixState(u, claims, w, comparable=1) for w, u in zip(widths, undecided)]


def test_precision_stops_each_group_at_its_target_and_spends_no_more_than_the_budget():
    states = {
        "a": _states([0.1, 0.05, 0.019, 0.018, 0.017], [1, 1, 0, 0, 0]),  # precise after 3 rounds
        "b": _states([0.1, 0.08, 0.06, 0.05, 0.04, 0.03], [1, 1, 1, 1, 1, 0]),  # never precise
    }
    costs, cells = {"a": 1.0, "b": 1.0}, {"a": 2, "b": 2}
    rounds = allocate(states, costs, cells, budget_s=100, stopping=STOPPING, floor=2, rule="precision")
    assert rounds == {"a": 3, "b": 6}  # b runs out of recorded rounds, a stops at its target
    tight = allocate(states, costs, cells, budget_s=6, stopping=STOPPING, floor=2, rule="precision")
    assert sum(tight.values()) == 6 and tight["a"] == 3  # fewest rounds first: a reached its target, b got the rest


def test_claims_stop_a_decided_group_and_give_its_time_to_the_open_one():
    states = {
        "decided": _states([0.1, 0.06, 0.05, 0.04, 0.03, 0.025], [0] * 6),  # claims decided from the start
        "open": _states([0.1, 0.08, 0.06, 0.05, 0.04, 0.03], [1, 1, 1, 1, 0, 0]),  # decided after 5 rounds
    }
    costs, cells = {"decided": 1.0, "open": 1.0}, {"decided": 2, "open": 2}
    precision = allocate(states, costs, cells, budget_s=8, stopping=STOPPING, floor=2, rule="precision")
    claims = allocate(states, costs, cells, budget_s=8, stopping=STOPPING, floor=2, rule="claims")
    assert precision == {"decided": 4, "open": 4}  # shared alike, the open claim still open at 4
    assert claims == {"decided": 2, "open": 5}  # the open one first, until decided; then the rest
    assert states["open"][claims["open"] - 1].undecided == 0


def test_a_group_without_claims_is_held_to_the_precision_target_under_both_rules():
    states = {"sweep": _states([0.1, 0.05, 0.03, 0.019], [0, 0, 0, 0], claims=0)}
    for rule in ("precision", "claims"):
        assert allocate(states, {"sweep": 1.0}, {"sweep": 1}, 100, STOPPING, 2, rule) == {"sweep": 4}


def test_the_cell_time_cap_holds():
    states = {"slow": _states([0.1] * 10, [1] * 10)}
    capped = Stopping(min_rounds=2, max_rounds=40, target_rel_ci=0.02, cell_time_cap_s=15.0)
    assert allocate(states, {"slow": 4.0}, {"slow": 2}, 1000, capped, 2, "claims") == {"slow": 8}  # 8 × 4 s ≥ 2 × 15 s


def test_the_replay_of_a_whole_run_gives_each_rule_its_report_numbers(fake_run):
    """On a real (fake-backend) run folder, with itself as the hour: the precision rule replayed within the machine
    time the run spent cannot use more processes than recorded, and every outcome carries the report's numbers."""
    from analysis.compute.load import load_run
    from analysis.tools.stopping_replay import replay
    from analysis.tools.stopping_replay_report import replay_markdown

    data = load_run(fake_run)
    stopping = Stopping(min_rounds=2, max_rounds=40, target_rel_ci=0.02, cell_time_cap_s=1000.0)
    table, summary = replay(data, data, stopping, floor=2)
    outcomes = summary["outcomes"]
    assert set(outcomes) >= {"hour run as measured", "replayed: precision", "replayed: claims"}
    recorded = int(table["recorded_rounds"].sum())
    for name in ("replayed: precision", "replayed: claims"):
        assert outcomes[name]["processes"] <= recorded
        assert outcomes[name]["machine_min"] <= summary["budget_min"] + 1e-9
        assert sum(outcomes[name]["verdicts"].values()) == sum(outcomes["hour run as measured"]["verdicts"].values())
    assert (table["precision_rounds"] <= table["recorded_rounds"]).all()
    assert "| replayed: claims |" in replay_markdown("long", "hour", summary)


def test_claims_first_serves_the_open_claim_first_then_spends_what_is_left_on_precision():
    states = {
        "decided": _states([0.1, 0.06, 0.05, 0.04, 0.03, 0.025], [0] * 6),
        "open": _states([0.1, 0.08, 0.06, 0.05, 0.04, 0.03], [1, 1, 1, 1, 0, 0]),
    }
    costs, cells = {"decided": 1.0, "open": 1.0}, {"decided": 2, "open": 2}
    first = allocate(states, costs, cells, budget_s=8, stopping=STOPPING, floor=2, rule="claims-first")
    assert first == {"decided": 3, "open": 5}  # the open one to 5 (decided), then the last second to the other


def test_the_replay_stops_each_group_by_the_runs_own_rule_a_group_with_nothing_to_compare_after_its_minimum():
    states = {
        "void": [PrefixState(0, 0, None, comparable=0)] * 6,  # its only ratio void: the run calls it done
        "open": _states([0.1, 0.08, 0.06, 0.05, 0.04, 0.03], [1] * 6),
    }
    costs, cells = {"void": 1.0, "open": 1.0}, {"void": 2, "open": 2}
    for rule in RULES:
        assert allocate(states, costs, cells, 100, STOPPING, 2, rule) == {"void": 2, "open": 6}, rule


def test_the_floor_ends_where_the_runs_stopping_rule_ends_a_group():
    states = {"a": _states([0.1, 0.05, 0.019, 0.018, 0.017, 0.016], [0] * 6, claims=0)}
    assert allocate(states, {"a": 1.0}, {"a": 2}, 100, STOPPING, 5, "precision") == {"a": 3}  # precise at 3 of 5


def test_the_replayed_claims_first_rule_is_the_run_budgets_open_claims_priority():
    from harness.session.rounds import priority

    assert RULES["claims-first"] is priority.OPEN_CLAIMS_FIRST


def test_expected_decisions_replays_the_forecast_of_each_prefix():
    """Two groups each with a claim open: one forecast to be decided after 3 more rounds, one 58 rounds away; the
    budget goes to the near one first and it is decided, where claims-first shares the rounds alike."""

    def forecast(needs: list[float]) -> list[PrefixState]:
        return [PrefixState(1 if n > 0 else 0, 1, 0.1, 1, (n,) if n > 0 else ()) for n in needs]

    states = {"far": forecast([60 - k for k in range(8)]), "near": forecast([4, 3, 2, 1, 0, 0, 0, 0])}
    costs, cells = {"far": 1.0, "near": 1.0}, {"far": 2, "near": 2}
    expected = allocate(states, costs, cells, budget_s=7, stopping=STOPPING, floor=2, rule="expected-decisions")
    shared = allocate(states, costs, cells, budget_s=7, stopping=STOPPING, floor=2, rule="claims-first")
    assert expected == {"far": 2, "near": 5} and states["near"][4].undecided == 0
    assert shared["near"] < 5  # fewest rounds first: the near claim stays open


def test_the_replay_refuses_a_run_whose_processes_held_several_groups(fake_run):
    import dataclasses

    import pytest

    from analysis.compute.load import load_run
    from analysis.tools.stopping_replay import replay
    from harness.model.errors import HarnessError

    data = load_run(fake_run)
    shared = dataclasses.replace(data, run=dataclasses.replace(data.run, design="paired-shared"))
    with pytest.raises(HarnessError, match="paired-shared design"):
        replay(shared, data, STOPPING, floor=2)
