"""The native anchors end to end: the real .NET lab times the scan beside two cells on two runtimes, the rows carry its
per-round times and its library's sha256, the same on both runtimes, and the report reads the ratios across runtimes
through it. Numbers are not checked."""

import json
import pathlib
import shutil
import subprocess
import sys

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("dotnet") is None or shutil.which("cc") is None,
    reason="dotnet SDK or a C compiler not installed: the real lab cannot build its anchors",
)


def _run(*args: str, timeout: int = 900) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout, check=False
    )


def test_two_runtimes_time_one_anchor_library_and_the_report_reads_their_ratios_through_it(tmp_path):
    done = _run(
        "harness", "run", "--profile", "smoke", "--experiment", "000", "--benchmark", "SystemTextCaseSensitive_Camel",
        "--benchmark", "NewtonSoftJson_Camel", "--runtime", "3.1.3", "--runtime", "10.0.12", "--isa", "native",
        "--backend", "host", "--no-calibration", "--job", "native_anchors=1", "--results-dir", str(tmp_path),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    run_dir = pathlib.Path(done.stdout.strip().splitlines()[-1])
    rows = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    timed = [r for r in rows if r["native_anchor_ns"]]
    assert {r["runtime_requested"] for r in timed} == {"3.1.3", "10.0.12"}
    assert all(list(r["native_anchor_ns"]) == ["scan"] for r in timed)
    assert all(len(r["native_anchor_ns"]["scan"]) == len(r["burst_ns"]) for r in timed)
    assert len({r["native_anchors_sha256"] for r in timed}) == 1  # the same machine code on both runtimes
    report = _run("analysis", "report", str(run_dir), timeout=300)
    assert report.returncode == 0, report.stderr
    assert "ratio of ratios through the `scan` anchor" in (run_dir / "report" / "report.md").read_text()
