"""A lab build that fails voids its own cells, not the run (harness/session/build_isolation.py): on the fake backend,
one runtime's build fails when the builds are made together and alone; its cells get a failed row each with the
build's cause, every other cell is probed and measured, and the report's verdict for its figures is void."""

from __future__ import annotations

import dataclasses
import json
import subprocess
import sys

import pytest

from analysis.compute.verdicts.claim_verdict import _failure_words
from harness.backends.fake import FakeBackend
from harness.model.errors import BuildError, HarnessError
from harness.session.runner import execute_run
from tests.conftest import REPO

BROKEN = "dotnet@8.0.0"


class BrokenBuild(FakeBackend):
    """Builds every lab build but those named, which fail as a compiler would."""

    def __init__(self, fixture_dir, broken: set[str]) -> None:
        super().__init__(fixture_dir)
        self.broken, self.tried_together = broken, 0
        self.built: list[str] = []

    def build(self, lab, log_path):
        if lab.target in self.broken:
            log_path.write_text("error CS0128: A local variable named 'list6' is already defined\n")
            raise BuildError(f"the build of lab '{lab.name}' failed: error CS0128: …", f"see its log {log_path}")
        self.built.append(lab.target)
        super().build(lab, log_path)

    def build_all(self, labs, log_dir):
        self.tried_together += 1
        if set(labs) & self.broken:
            raise BuildError("the image build failed", "see the log")
        super().build_all(labs, log_dir)


def _rows(summary):
    return [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]


def test_a_build_that_fails_voids_its_own_cells_and_every_other_cell_is_measured(fixture_dir, smoke_options):
    backend = BrokenBuild(fixture_dir, {BROKEN})
    options = dataclasses.replace(smoke_options, runtimes=("8.0.0", "10.0.12"), isa_levels=("native",))
    summary = execute_run(options, backend)
    rows = _rows(summary)
    broken = [r for r in rows if r["runtime_requested"] == "8.0.0"]
    assert broken and all(r["status"] == "failed" for r in broken)
    assert all(r["error"].startswith("build failed: the build of lab 'dotnet' failed: error CS0128") for r in broken)
    assert len({r["cell_id"] for r in broken}) == len(broken)  # one row per cell: no process ran
    assert {r["log_path"] for r in broken} == {"logs/build-dotnet@8.0.0.log"}
    assert (summary.directory / "logs" / "build-dotnet@8.0.0.log").read_text().startswith("error CS0128")
    measured = [r for r in rows if r["runtime_requested"] == "10.0.12"]
    assert measured and all(r["status"] in ("ok", "unverified") for r in measured)
    assert backend.tried_together == 1 and backend.built == ["dotnet@10.0.12"]
    report = subprocess.run(
        [sys.executable, "-m", "analysis", "report", str(summary.directory)], cwd=REPO, capture_output=True, text=True
    )
    assert report.returncode == 0 and "Traceback" not in report.stderr, report.stderr
    text = (summary.directory / "report" / "report.md").read_text()
    assert "void: build failed: the build of lab 'dotnet' failed: error CS0128" in text
    lead = text[: text.index("## ")]  # said before any section: which build failed, its cells, its log
    assert "**Builds that failed**: lab dotnet on 8.0.0:" in lead and "`logs/build-dotnet@8.0.0.log`" in lead
    assert "10.0.12" not in lead.split("**Builds that failed**")[1]


def test_a_run_none_of_whose_builds_builds_stops_with_the_cause(fixture_dir, smoke_options):
    backend = BrokenBuild(fixture_dir, {BROKEN, "dotnet@10.0.12"})
    options = dataclasses.replace(smoke_options, runtimes=("8.0.0", "10.0.12"), isa_levels=("native",))
    with pytest.raises(HarnessError, match="no lab build of this run could be built: build failed: the build of"):
        execute_run(options, backend)


def test_a_run_of_one_build_that_fails_stops_with_the_builds_own_error(fixture_dir, smoke_options):
    backend = BrokenBuild(fixture_dir, {"dotnet@10.0.12"})
    with pytest.raises(BuildError, match="the image build failed"):
        execute_run(dataclasses.replace(smoke_options, isa_levels=("native",)), backend)


def test_the_figures_of_a_build_that_failed_read_void_with_its_cause():
    error = "build failed: the build of lab 'dotnet' failed: error CS0128 (see its log logs/build-dotnet-8.0.0.log)"
    assert _failure_words(error) == "void: build failed: the build of lab 'dotnet' failed: error CS0128"
    assert _failure_words("the lab crashed (log x)") == "failed: the lab crashed"
    assert _failure_words("unavailable: no package") == "unavailable: no package"
