"""A complete fake-backend run (default profile, write-ups 000 and 001, two ISA levels) shared by the analysis tests."""


import pytest

from analysis.compute.aggregate import with_ratios
from analysis.compute.load import load_run
from analysis.compute.replicates import summarize_cells
from harness.backends.fake import FakeBackend
from harness.planning.run_plan import RunOptions
from harness.session.runner import execute_run
from tests.conftest import FIXTURES


@pytest.fixture(scope="module")
def fake_run(tmp_path_factory):
    """Run folder of a fake run: Newtonsoft 2× slower, stj-default 2× faster, the write-ups' binding failures; one
    process per
    cell (the interleaved design), as the goldens were made (the paired design has its own tests,
    tests/harness/session/test_paired.py).
    """
    backend = FakeBackend(
        FIXTURES / "dotnet-cell",
        failing_verification=frozenset(
            {("stj-default", "myclass-camel"), ("stj-default", "employee-single"), ("stj-default", "employee-data")}
        ),
        time_scale={"newtonsoft-default": 2.0, "stj-default": 0.5},
        process_spread=0.01,
    )
    options = RunOptions(
        profile="default",
        design="interleaved",
        runtimes=("10.0.12",),
        experiments=("000", "001"),
        isa_levels=("native", "no-avx512"),
        run_id="golden-run",
        results_dir=tmp_path_factory.mktemp("results"),
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
    return execute_run(options, backend).directory


@pytest.fixture(scope="module")
def fake_rows(fake_run):
    """The fake run's replicate rows."""
    return load_run(fake_run).rows


@pytest.fixture(scope="module")
def fake_cells(fake_run):
    """with_ratios() of the fake run."""
    rows = load_run(fake_run).rows
    return with_ratios(summarize_cells(rows), rows)
