"""A real competing load on the lab's CPU: a busy loop pinned there while a real lab process measures is seen by the
harness, and the processes it disturbed are kept, set aside, and replaced by fresh ones in the same round (issue 30)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import threading
import time

import pytest

REPO = pathlib.Path(__file__).resolve().parents[2]

pytestmark = pytest.mark.skipif(
    shutil.which("taskset") is None or (os.cpu_count() or 1) < 2,
    reason="needs taskset and two CPUs (one for the lab, one for the harness)",
)

#: How long the competing loop runs once the first lab process has started: longer than one process of this cell
#: (about 0.5-1 s), shorter than the cell's replacements together (harness/model/stats/interference.py).
BUSY_S = 1.5


def _busy_when_the_lab_starts(results: pathlib.Path, cpu: str, stop: threading.Event) -> None:
    """Waits for the first cell's raw folder (made just before its process starts), then spins on the lab's CPU."""
    while not stop.is_set():
        if any(results.glob("*/raw/*/round-1")):
            loop = f"import time\nt = time.monotonic()\nwhile time.monotonic() - t < {BUSY_S}: pass\n"
            subprocess.run(["taskset", "-c", cpu, sys.executable, "-c", loop], check=True)
            return
        time.sleep(0.005)


def test_a_busy_loop_on_the_lab_cpu_gets_the_processes_it_disturbed_replaced(tmp_path):
    cpu = str((os.cpu_count() or 2) - 1)
    results = tmp_path / "results"
    stop = threading.Event()
    busy = threading.Thread(target=_busy_when_the_lab_starts, args=(results, cpu, stop), daemon=True)
    busy.start()
    try:
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "harness",
                "run",
                "--profile",
                "smoke",
                "--benchmark",
                "parse-string-canada",
                "--runtime",
                "24.21.0",
                "--isa",
                "native",
                "--backend",
                "host",
                "--no-calibration",
                "--cpuset",
                cpu,
                "--results-dir",
                str(results),
            ],
            cwd=REPO,
            capture_output=True,
            text=True,
            timeout=900,
        )
    finally:
        stop.set()
        busy.join(timeout=30)
    assert done.returncode == 0, done.stderr
    run_dir = pathlib.Path(done.stdout.strip().splitlines()[-1])
    rows = [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]
    replaced = [r for r in rows if r.get("replaced")]
    assert replaced, [(r["round_index"], r["status"], r["cpu_other_ms"], r["duration_s"]) for r in rows]
    assert all(r["status"] == "disturbed" and "replaced by a fresh process" in r["error"] for r in replaced)
    assert all(r["round_index"] == 1 for r in replaced), "the loop ended before round 2"
    # the disturbed process's raw output stays beside its replacement's
    assert len({r["raw_path"] for r in rows}) == len(rows)
    final = [r for r in rows if not r.get("replaced")]
    assert {(r["round_index"], r["status"]) for r in final} == {(1, "ok"), (2, "ok")}
    assert "replaced" in done.stderr.splitlines()[-1]  # the run's summary counts them
