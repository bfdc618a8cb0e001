"""`--until-decided [--max DURATION]`: measuring until every claim more rounds can decide is decided, on a simulated
clock; resumable."""

import argparse
import dataclasses
import json
from collections import Counter

import pytest

from harness.backends.fake import FakeBackend
from harness.backends.fake_clock import FakeClock
from harness.config.arguments import duration
from harness.config.experiment.profiles import Stopping
from harness.model.errors import ConfigError, ResumeError
from harness.planning.plan_parts import UNTIL_DECIDED_MINUTES, until_decided
from harness.planning.run_plan import resolve_plan
from harness.session.runner import execute_run
from tests.harness.session.test_budget import SMOKE_PROCESS_S, _budget_run


def _fixture(smoke_options):
    return smoke_options.datasets_dir.parent / "tests" / "fixtures" / "dotnet-cell"


def _until_run(smoke_options, tmp_path, max_min: float = 600.0, **options):
    """The smoke cells (claims read at native only: 000's myclass and 001's single; the scalar groups read none) with
    fake processes spreading 10%, until decided or `max_min`."""
    return _budget_run(smoke_options, tmp_path, None, until_decided=True, max_min=max_min, **options)


def test_until_decided_measures_the_groups_with_a_decidable_claim_and_gives_the_rest_their_floor(
    smoke_options, tmp_path, capsys
):
    summary, rounds, groups, clock = _until_run(smoke_options, tmp_path)
    assert rounds[("scalar", "myclass")] == 2 and rounds[("scalar", "single")] == 2  # no claim: the floor only
    assert max(rounds[("native", "myclass")], rounds[("native", "single")]) > 2  # rounds went where claims were open
    assert clock.now < 600 * 60  # it ended on its own, long before --max
    states = {(g["isa_level"], g["group"]): g["state"] for g in groups}
    assert states[("scalar", "myclass")] == "done" and states[("scalar", "single")] == "done"
    run = json.loads((summary.directory / "run.json").read_text())
    assert run["budget"]["until_decided"] and run["budget"]["minutes"] == 600.0 and run["stopping"]["until_decided"]
    err = capsys.readouterr().err
    assert "until decided:" in err and "claims read decided" in err and "until every claim a round can" in err


def test_a_short_max_stops_it_and_names_what_more_time_would_decide(smoke_options, tmp_path, capsys):
    full, *_ = _until_run(smoke_options, tmp_path, run_id="full")
    _, rounds, groups, clock = _until_run(smoke_options, tmp_path, max_min=1.0, run_id="short")
    assert sum(rounds.values()) < sum(
        Counter(
            (r["isa_requested"], r["group"])
            for r in map(json.loads, (full.directory / "results.jsonl").read_text().splitlines())
        ).values()
    )
    assert clock.now <= 60 + 3 * 1.2  # within --max, give or take a round (of up to 3 processes of 1.2 s)
    err = capsys.readouterr().err.split("until decided:")[-1]
    assert "more rounds would decide" in err


def test_an_until_decided_run_resumes_with_the_same_rounds(smoke_options, tmp_path):
    summary, *_ = _until_run(smoke_options, tmp_path)
    results = summary.directory / "results.jsonl"
    lines = results.read_text().splitlines()
    results.write_text("\n".join(lines[:-3]) + "\n")
    dropped = Counter(json.loads(line)["cell_id"] for line in lines[-3:])
    clock = FakeClock()  # the resumed session's, which its processes move
    again = FakeBackend(_fixture(smoke_options), process_spread=0.1, clock=clock, process_s=SMOKE_PROCESS_S)
    resumed = dataclasses.replace(
        smoke_options,
        profiles_file=tmp_path / "profiles.toml",
        clock=clock,
        resume=True,
        run_id=summary.directory.name,
        until_decided=True,
        max_min=600.0,
    )
    execute_run(resumed, again)
    assert Counter(again.cells_run) == dropped
    rows = [json.loads(line) for line in results.read_text().splitlines()]
    records = [json.loads(line) for line in (summary.directory / "groups.jsonl").read_text().splitlines()]
    for record in records[-4:]:  # the resumed session's: every group's rounds as its rows hold them
        key = (record["isa_level"], record["group"])
        assert record["rounds"] == max(r["round_index"] for r in rows if (r["isa_requested"], r["group"]) == key)
    with pytest.raises(ResumeError, match="was started with") as refused:  # without it: another stopping rule
        execute_run(
            dataclasses.replace(resumed, until_decided=False, max_min=None), FakeBackend(_fixture(smoke_options))
        )
    assert "--until-decided" in refused.value.hint


def test_until_decided_lifts_the_caps_keeps_the_floor_and_needs_an_adaptive_rule(smoke_options):
    plan = resolve_plan(
        dataclasses.replace(smoke_options, profile="default", experiments=("001",), benchmarks=None, until_decided=True)
    )
    assert plan.budget is not None and plan.budget.until_decided and plan.budget.minutes == UNTIL_DECIDED_MINUTES
    assert plan.budget.floor_rounds == 5 and plan.budget.probe_groups == 0  # the default profile's floor, no probe
    assert plan.stopping.until_decided and plan.stopping.time_cap_s(3) is None and plan.stopping.max_rounds >= 1000
    assert "until every claim a round can decide is decided, at most 480 min" in plan.estimate()
    with pytest.raises(ConfigError, match="adapts"):
        until_decided(None, Stopping(2, 2), None)


@pytest.mark.parametrize("text, minutes", [("90", 90.0), ("45m", 45.0), ("1.5h", 90.0), ("2h30m", 150.0)])
def test_a_duration_reads_minutes_or_hours_and_minutes(text, minutes):
    assert duration(text) == minutes


@pytest.mark.parametrize("text", ["", "0", "h", "3d", "-5", "1e9", "2h-3m", "9999h", "x" * 100])
def test_a_duration_that_is_none_is_refused(text):
    with pytest.raises(argparse.ArgumentTypeError):
        duration(text)


def test_a_unit_is_named_by_its_first_group_and_how_many_more_it_holds():
    from harness.model.cells import Cell
    from harness.planning.designs import Unit
    from harness.session.rounds.noise_probe import unit_label

    def cells(group, runtime="8.0.0"):
        return [Cell("004", b, group, "a", "dotnet", "v", "ds", "serialize", "avx2", runtime=runtime) for b in "ab"]

    assert unit_label(Unit("u", tuple(cells("g1")))) == "004/g1@avx2 on 8.0.0"
    assert unit_label(Unit("u", tuple(cells("g1") + cells("g2")))) == "004/g1@avx2 on 8.0.0 and 1 more group"
    three = Unit("u", tuple(cells("g1") + cells("g2") + cells("g3")))
    assert unit_label(three) == "004/g1@avx2 on 8.0.0 and 2 more groups"
