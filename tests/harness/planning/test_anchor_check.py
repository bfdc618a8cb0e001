"""Native anchors asked for where they cannot be timed stop the run before it starts (planning/anchor_check.py)."""

import pytest

from harness.model.errors import ConfigError
from harness.planning.run_plan import RunOptions, resolve_plan


def _plan(tmp_path, **selection):
    options = dict(
        profile="default", results_dir=tmp_path, build=False, check_tools=False, job_overrides=("native_anchors=1",)
    )
    return resolve_plan(RunOptions(**{**options, **selection}))


def test_the_dotnet_lab_in_its_paired_processes_times_them(tmp_path):
    assert _plan(tmp_path, experiments=("000",)).job.native_anchors == 1


def test_a_design_that_runs_each_cell_alone_refuses_them_with_the_fix(tmp_path):
    with pytest.raises(ConfigError, match="inside paired processes") as error:
        _plan(tmp_path, experiments=("000",), design="sequential")
    assert "--design paired" in error.value.hint


def test_labs_without_them_are_named_and_nothing_runs_without_them(tmp_path):
    with pytest.raises(ConfigError, match="lab\\(s\\) cpp, reference-node have no native anchors"):
        _plan(tmp_path, experiments=("006",))
