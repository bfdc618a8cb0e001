"""Shared pytest fixtures: the repository on sys.path, captured lab output, a fake-backend run."""

from __future__ import annotations

import pathlib
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from harness.backends.fake import FakeBackend  # noqa: E402
from harness.planning.run_plan import RunOptions  # noqa: E402

FIXTURES = REPO / "tests" / "fixtures"


@pytest.fixture(autouse=True)
def no_local_settings(monkeypatch, tmp_path_factory):
    """A developer's lab.local.toml (accepted vendor terms: harness/config/lab/vendor_terms.py) never reaches a test; a
    test that wants one writes its own and points JSONLAB_LOCAL_SETTINGS at it."""
    monkeypatch.setenv("JSONLAB_LOCAL_SETTINGS", str(tmp_path_factory.getbasetemp() / "no-lab.local.toml"))


def edited_experiments(folder: pathlib.Path, **edits) -> pathlib.Path:
    """A copy of experiments/ in `folder`/experiments with each edit applied to its experiment's file: `e007=fn` runs
    fn(text) on 007-*.toml. Returns the copy's folder (an --experiments-dir)."""
    import shutil

    copy = folder / "experiments"
    shutil.copytree(REPO / "experiments", copy)
    for key, edit in edits.items():
        path = next(copy.glob(f"{key.removeprefix('e')}-*.toml"))
        path.write_text(edit(path.read_text()))
    return copy


def after_lab_line(text: str):
    """An edit that puts `text` on the line after the file's top-level `lab = "dotnet"`."""
    return lambda body: body.replace('lab = "dotnet"\n', f'lab = "dotnet"\n{text}', 1)


def on_selftest(body: str) -> str:
    """Write-up 007 on its 44-byte self-test document instead of the 115 MB one (nothing to generate)."""
    return body.replace('dataset = "coordinates"\n', 'dataset = "coordinates-selftest"\n')


@pytest.fixture
def fixture_dir() -> pathlib.Path:
    """A real cell folder captured from the dotnet lab (smoke job, stj-case-insensitive × myclass-camel)."""
    return FIXTURES / "dotnet-cell"


@pytest.fixture
def fake_backend(fixture_dir: pathlib.Path) -> FakeBackend:
    """Fake backend with realistic per-variant speeds and the write-ups' verification failures."""
    return FakeBackend(
        fixture_dir,
        failing_verification=frozenset({("stj-default", "myclass-camel"), ("stj-default", "employee-single")}),
        time_scale={"newtonsoft-default": 2.0, "stj-default": 0.5},
    )


@pytest.fixture
def smoke_options(tmp_path: pathlib.Path) -> RunOptions:
    """Smoke profile's write-up 000/001 cells (5 benchmarks × 2 levels) into a temporary results folder, laid out one
    process per cell (the interleaved design; tests of the paired design pass design="paired"); the test process
    itself is never pinned."""
    return RunOptions(
        profile="smoke",
        design="interleaved",
        runtimes=("10.0.12",),
        experiments=("000", "001"),
        benchmarks=(
            "SystemTextCaseSensitive_Camel",
            "SystemTextCaseInsensitive_Camel",
            "NewtonSoftJson_Camel",
            "single-stj-default",
            "single-newtonsoft",
        ),
        results_dir=tmp_path / "results",
        build=True,
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
    )
