"""The paired-pipelined design's hand-over with real child processes (a Python stand-in for the paired verb's
`--handoff 1`): warmed on one CPU, moved to the lab's, its clock from the move; the next one warming behind it; a wrong
guess stopped and its traces set aside; a process that breaks the protocol a failed row, never a hang."""

import dataclasses
import os
import pathlib
import sys

import pytest

from harness.backends.base import CellRequest
from harness.backends.host import HostBackend
from harness.backends.warm_lines import WarmLine, parse_started_line, parse_warm_line
from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell, JobSettings, without_handover_settings

CPUS = sorted(os.sched_getaffinity(0))
WARM_CPU, LAB_CPU = str(CPUS[0]), str(CPUS[-1])  # one CPU apart where there are two; the same one otherwise

# Burns CPU while warming, says it is warm with its CPU time, waits for `go`, then writes where it ran and what it
# was told into its output folder (its last argument after --out), and burns a little more.
STAND_IN = """
import os, sys, time
out = sys.argv[sys.argv.index('--out') + 1]
t = time.process_time()
while time.process_time() - t < 0.2: pass
print(f"jsonlab-warm {os.getpid()} cpu-ms={1000 * time.process_time():.0f}", flush=True)
told = sys.stdin.readline().strip()
if told != 'go':
    print('error: the warm process was not handed over'); sys.exit(2)
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, 'ran-on'), 'w') as f:
    f.write(','.join(map(str, sorted(os.sched_getaffinity(0)))))
t = time.process_time()
while time.process_time() - t < 0.1: pass
"""


def _request(tmp_path: pathlib.Path, name: str, script: str = STAND_IN, timeout_s: float = 30) -> CellRequest:
    lab = LabSpec("stand-in", tmp_path, "Python", "bdn", (), (), (sys.executable, "-c", script), {})
    cell = Cell("000", name, "g", name, "stand-in", "v", "ds", "deserialize", "native")
    out = tmp_path / "raw" / name
    out.mkdir(parents=True)
    return CellRequest(
        lab, cell, tmp_path, out, tmp_path / f"{name}.log", JobSettings(), {}, LAB_CPU, timeout_s, warm_cpuset=WARM_CPU
    )


def test_a_warm_process_is_moved_to_the_lab_cpu_and_its_clock_starts_there(tmp_path):
    backend = HostBackend(set())
    [run] = backend.run_cells([_request(tmp_path, "first")])
    assert run.error is None, run.error
    assert (tmp_path / "raw" / "first" / "ran-on").read_text() == LAB_CPU
    # its warm-up (0.2 s of CPU, said in its warm line) is not the lab CPU's: only what ran after the move counts
    assert 0.05 <= run.usage.lab_cpu_s < 0.2
    log = (tmp_path / "first.log").read_text()
    assert f"taskset -c {WARM_CPU}" in log and f"handed to CPU {LAB_CPU}" in log


def test_the_guessed_next_process_warms_meanwhile_and_is_the_one_handed_over_next(tmp_path):
    backend = HostBackend(set())
    second = _request(tmp_path, "second")
    first = dataclasses.replace(_request(tmp_path, "first"), then=lambda: second)
    [run] = backend.run_cells([first])
    warming = backend.processes.handover.warming
    assert run.error is None and warming is not None and warming.request == second
    pid = warming.popen.pid
    [run] = backend.run_cells([second])
    assert run.error is None and warming.popen.pid == pid  # not started again
    assert backend.processes.handover.warming is None
    assert (tmp_path / "raw" / "second" / "ran-on").read_text() == LAB_CPU


def test_a_wrong_guess_is_stopped_its_log_set_aside_and_its_raw_folder_removed(tmp_path):
    backend = HostBackend(set())
    guessed = _request(tmp_path, "guessed")
    [run] = backend.run_cells([dataclasses.replace(_request(tmp_path, "first"), then=lambda: guessed)])
    assert run.error is None
    [run] = backend.run_cells([_request(tmp_path, "chosen")])
    assert run.error is None
    assert not (tmp_path / "raw" / "guessed").exists()
    assert not (tmp_path / "guessed.log").exists()
    assert "no row comes from this process" in (tmp_path / "guessed.discarded.log").read_text()
    assert (tmp_path / "raw" / "chosen" / "ran-on").read_text() == LAB_CPU
    # the same process guessed and stopped again keeps a log of its own
    [run] = backend.run_cells([dataclasses.replace(_request(tmp_path, "third"), then=lambda: guessed)])
    [run] = backend.run_cells([_request(tmp_path, "fourth")])
    assert run.error is None and (tmp_path / "guessed.discarded.log").exists()
    assert "no row comes from this process" in (tmp_path / "guessed.discarded-2.log").read_text()


def test_the_end_of_the_run_stops_a_process_warming_ahead(tmp_path):
    backend = HostBackend(set())
    guessed = _request(tmp_path, "guessed")
    backend.run_cells([dataclasses.replace(_request(tmp_path, "first"), then=lambda: guessed)])
    popen = backend.processes.handover.warming.popen
    backend.close()
    assert popen.poll() is not None and backend.processes.handover.warming is None


@pytest.mark.parametrize(
    "script, expected",
    [
        ("import sys\nprint('error: no member could be measured'); sys.exit(3)", "no member could be measured"),
        ("print('hello, not warm', flush=True)\nimport sys\nsys.stdin.readline()", "never said it was warm"),
        ("import time\ntime.sleep(30)", "timed out"),
    ],
)
def test_a_process_that_never_says_it_is_warm_is_a_failed_process_with_its_log(tmp_path, script, expected):
    [run] = HostBackend(set()).run_cells([_request(tmp_path, "broken", script, timeout_s=1.5)])
    assert run.error is not None and expected in str(run.error)
    assert "broken.log" in run.error.hint


def test_only_the_paired_verbs_warm_line_is_taken():
    assert parse_warm_line("jsonlab-warm 4242 cpu-ms=1830") == WarmLine(4242, 1.83)
    assert parse_warm_line("jsonlab-warm 4242 cpu-ms=0.5\n") == WarmLine(4242, 0.0005)
    for line in (
        "jsonlab-warm 4242",
        "jsonlab-warm 4242 cpu-ms=-3",
        "jsonlab-warm 4242 cpu-ms=nan",
        "jsonlab-warm -1 cpu-ms=3",
        "jsonlab-warm 42 cpu-ms=3 more",
        "jsonlab-warm 42 cpu-ms=1e999",
        "jsonlab-warm 42 cpu-ms=" + "9" * 40,
        "warm 42 cpu-ms=3",
        "",
    ):
        assert parse_warm_line(line) is None, line


# Says it is warm after `warm_s` of CPU, waits for `go`, then (like the paired verb with --extend-rounds) plays on
# until its standard input says `stop` or ends, and writes what it was told and how long it played on.
EXTENDING = """
import os, sys, time
out = sys.argv[sys.argv.index('--out') + 1]
warm_s = float(os.environ.get('WARM_S', '0.2'))
t = time.process_time()
while time.process_time() - t < warm_s: pass
print(f"jsonlab-warm {os.getpid()} cpu-ms={1000 * time.process_time():.0f}", flush=True)
if sys.stdin.readline().strip() != 'go':
    sys.exit(2)
moved = time.monotonic()
told = sys.stdin.readline().strip()
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, 'told'), 'w') as f:
    f.write(f"{told or 'end'} {time.monotonic() - moved:.3f}")
"""


def _extending(tmp_path: pathlib.Path, name: str, warm_s: float, extend_rounds: int | None = 40) -> CellRequest:
    request = _request(tmp_path, name, EXTENDING)
    return dataclasses.replace(request, job=JobSettings(extend_rounds=extend_rounds), switches={"WARM_S": str(warm_s)})


def _told(tmp_path: pathlib.Path, name: str) -> tuple[str, float]:
    said, seconds = (tmp_path / "raw" / name / "told").read_text().split()
    return said, float(seconds)


def test_extra_rounds_go_on_until_the_process_warming_behind_is_warm(tmp_path):
    backend = HostBackend(set())
    second = _extending(tmp_path, "second", warm_s=0.6)
    [run] = backend.run_cells([dataclasses.replace(_extending(tmp_path, "first", warm_s=0.1), then=lambda: second)])
    assert run.error is None, run.error
    said, waited = _told(tmp_path, "first")
    assert said == "stop" and waited >= 0.4  # told once the second said its warm line, not before
    [run] = backend.run_cells([second])  # its warm line, read while the first played on, is not lost
    assert run.error is None, run.error
    assert _told(tmp_path, "second")[0] == "stop"  # nothing warming behind it: told at once


def test_with_nothing_warming_behind_a_process_is_told_to_stop_at_once(tmp_path):
    backend = HostBackend(set())
    [run] = backend.run_cells([_extending(tmp_path, "alone", warm_s=0.1)])
    assert run.error is None, run.error
    said, waited = _told(tmp_path, "alone")
    assert said == "stop" and waited < 0.5


def test_without_extra_rounds_the_input_ends_after_go(tmp_path):
    backend = HostBackend(set())
    [run] = backend.run_cells([_extending(tmp_path, "plain", warm_s=0.1, extend_rounds=None)])
    assert run.error is None, run.error
    assert _told(tmp_path, "plain")[0] == "end"


def test_extra_rounds_are_given_to_a_handed_over_process_only():
    job = JobSettings(burst_rounds=15, extend_rounds=45)
    assert "--extend-rounds" not in job.to_args()
    assert job.handover_args() == ["--handoff", "1", "--extend-rounds", "45"]
    assert JobSettings(burst_rounds=15).handover_args() == ["--handoff", "1"]


# Like the paired verb: says its id as it starts, warms for `warm_s` of CPU, takes a `moved` line if one came
# meanwhile, says it is warm with the CPU time it used before it was moved, waits for `go`; writes where it was when
# warm, what it was told, and when (wall clock) it started and said it was warm.
STARTING = """
import os, select, sys, time
out = sys.argv[sys.argv.index('--out') + 1]
started = time.time()
print(f"jsonlab-started {os.getpid()}", flush=True)
warm_s = float(os.environ.get('WARM_S', '0.4'))
t = time.process_time()
while time.process_time() - t < warm_s: pass
told = []
if select.select([sys.stdin], [], [], 0)[0]:
    told.append(sys.stdin.readline().strip())
warm_on = ','.join(map(str, sorted(os.sched_getaffinity(0))))
warm = time.time()
print(f"jsonlab-warm {os.getpid()} cpu-ms={1000 * time.process_time():.0f}", flush=True)
told.append(sys.stdin.readline().strip())
os.makedirs(out, exist_ok=True)
with open(os.path.join(out, 'said'), 'w') as f:
    f.write(f"{warm_on} {'+'.join(told)} {started} {warm}")
"""


def _starting(tmp_path: pathlib.Path, name: str, early: int | None) -> CellRequest:
    request = _request(tmp_path, name, STARTING)
    return dataclasses.replace(request, job=JobSettings(warm_on_lab_cpu=early))


def _said(tmp_path: pathlib.Path, name: str) -> tuple[str, str, float, float]:
    warm_on, told, started, warm = (tmp_path / "raw" / name / "said").read_text().split()
    return warm_on, told, float(started), float(warm)


@pytest.mark.skipif(WARM_CPU == LAB_CPU, reason="needs two CPUs to tell where a process warmed")
def test_a_process_not_warm_when_the_lab_cpu_is_free_finishes_warming_there_and_the_next_starts_at_once(tmp_path):
    backend = HostBackend(set())
    second = _starting(tmp_path, "second", early=1)
    [run] = backend.run_cells([dataclasses.replace(_starting(tmp_path, "first", early=1), then=lambda: second)])
    assert run.error is None, run.error
    warm_on, told, _, first_warm = _said(tmp_path, "first")
    assert warm_on == LAB_CPU and told == "moved+go"
    [run] = backend.run_cells([second])
    assert run.error is None, run.error
    _, _, second_started, _ = _said(tmp_path, "second")
    assert second_started < first_warm, "the next process started warming before the first one was warm"


def test_without_warm_on_lab_cpu_a_process_that_says_its_id_first_is_handed_over_warm(tmp_path):
    [run] = HostBackend(set()).run_cells([_starting(tmp_path, "plain", early=None)])
    assert run.error is None, run.error
    warm_on, told, _, _ = _said(tmp_path, "plain")
    assert warm_on == WARM_CPU and told == "go"


def test_only_the_paired_verbs_started_line_is_taken():
    assert parse_started_line("jsonlab-started 4242\n") == 4242
    for line in (
        "jsonlab-started",
        "jsonlab-started -1",
        "jsonlab-started 4 2",
        "started 42",
        "jsonlab-started " + "9" * 20,
    ):
        assert parse_started_line(line) is None, line


def test_warm_on_lab_cpu_is_the_harness_s_alone_and_not_part_of_the_method():
    job = JobSettings(burst_rounds=15, warm_on_lab_cpu=1)
    assert "--warm-on-lab-cpu" not in job.to_args() + job.handover_args()
    assert without_handover_settings(job) == JobSettings(burst_rounds=15)
