"""The plan on one screen (harness/planning/plan_summary.py): an explaining plan names each experiment it has no factor
to switch for, with why and what its cells then measure; a plan that explains nothing, or an experiment with a
switch, says nothing of the kind."""

from __future__ import annotations

from harness.planning.plan_summary import plan_summary
from harness.planning.run_plan import RunOptions, resolve_plan


def _plan(tmp_path, profile: str, experiment: str, **options):
    return resolve_plan(
        RunOptions(
            profile=profile,
            experiments=(experiment,),
            results_dir=tmp_path / "results",
            build=False,
            check_tools=False,
            **options,
        )
    )


def test_an_experiment_with_no_factor_to_switch_is_named_with_why_and_what_it_measures(tmp_path):
    plan = _plan(tmp_path, "explain", "000")  # write-up 000 states no version the lab can build, no run setting
    assert plan.explains and plan.cells
    text = plan_summary(plan)
    assert (
        "  000: nothing to switch: none of the library versions its write-up states (System.Text.Json, "
        "Newtonsoft.Json, BenchmarkDotNet) is one the lab can build that differs from its own, and its publisher's "
        "setup states no run setting"
    ) in text
    assert f"its {len(plan.cells)} cells only re-measure its claimed figures: a reproduction with no factor" in text


def test_an_experiment_with_a_switch_and_a_plan_that_explains_nothing_say_no_such_thing(tmp_path):
    explained = _plan(tmp_path, "explain", "007")  # Newtonsoft.Json 13.0.3, tiered compilation off
    assert explained.explains and "nothing to switch" not in plan_summary(explained)
    default = _plan(tmp_path, "default", "000")
    assert not default.explains and "nothing to switch" not in plan_summary(default)


def test_the_runtime_token_alone_makes_a_plan_explain(tmp_path):
    plan = _plan(tmp_path, "default", "000", runtimes=("claims", "publisher-versions"))
    assert plan.explains and "  000: nothing to switch" in plan_summary(plan)
