"""Where the time went: the run's wall time split into measured samples and everything around them."""

import pandas as pd
import pytest

from analysis.compute.load import load_run
from analysis.compute.timing import SAMPLES, account, timing_markdown
from harness.model.folder.run_records import TimelineRecord


def _rows(**overrides):
    row = {
        "status": "ok",
        "duration_s": 4.0,
        "start_to_main_ms": 50.0,
        "verify_ms": 100.0,
        "prewarm_ms": 800.0,
        "bdn_run_ms": 2800.0,
        "bdn_jitting_ms": 1.0,
        "bdn_pilot_ms": 0.0,
        "bdn_overhead_ms": 9.0,
        "bdn_warmup_ms": 60.0,
        "bdn_actual_ms": 2230.0,
    }
    row.update(overrides)
    return row


def test_the_parts_add_up_to_the_session_and_samples_are_their_own_line():
    rows = pd.DataFrame([_rows(), _rows(), {**_rows(status="failed"), "duration_s": 0.5}])
    timeline = [
        TimelineRecord(phase=phase, what="", seconds=seconds, ended_at="")
        for phase, seconds in (("prepare", 10.0), ("calibration", 5.0), ("session", 30.0))
    ]
    acc = account(rows, timeline)
    assert acc.wall_s == 30.0
    assert acc.parts[SAMPLES] == pytest.approx(4.46)
    assert acc.parts["BenchmarkDotNet other (forced GCs, memory diagnoser run, export)"] == pytest.approx(2 * 0.5)
    assert acc.parts["process other (dataset load, environment probe, exit)"] == pytest.approx(2 * 0.25)
    assert acc.parts["failed or skipped processes"] == pytest.approx(0.5)
    assert sum(acc.parts.values()) == pytest.approx(30.0)
    assert acc.samples_share == pytest.approx(4.46 / 30)


def test_a_run_without_a_timeline_has_no_section():
    assert account(pd.DataFrame([_rows()]), []) is None
    assert timing_markdown(pd.DataFrame([_rows()]), []) == ""


def test_a_real_fake_run_records_its_timeline(fake_run):
    data = load_run(fake_run)
    phases = {p.phase for p in data.timeline}
    assert {"prepare", "session"} <= phases
    text = timing_markdown(data.rows, data.timeline)
    assert text.startswith("## Where the time went") and "measured samples" in text


def test_a_handed_over_processs_warm_up_is_beside_the_run_and_its_re_warm_in_it():
    paired = {"status": "ok", "duration_s": 2.0, "start_to_main_ms": 50.0, "verify_ms": 100.0, "prewarm_ms": 1500.0}
    handed = {**paired, "bursts_ms": 1500.0, "rewarm_ms": 100.0, "handover_wait_ms": 700.0}
    plain = {**paired, "duration_s": 3.65, "bursts_ms": 1500.0, "rewarm_ms": None, "handover_wait_ms": None}
    timeline = [TimelineRecord(phase="session", what="", seconds=10.0, ended_at="")]
    acc = account(pd.DataFrame([handed, handed, plain]), timeline)
    # on the lab's CPU: the plain process's start, verification and prewarm, both handed-over ones' re-warm
    assert acc.parts["prewarm until the JIT is quiet"] == pytest.approx(1.5)
    assert acc.parts["re-warm on the lab's CPU after the hand-over"] == pytest.approx(0.2)
    assert acc.parts["process other (dataset load, environment probe, exit)"] == pytest.approx(2 * 0.4 + 0.5)
    assert sum(acc.parts.values()) == pytest.approx(10.0)
    # on the harness's CPU, beside the run: the handed-over processes' start, verification, prewarm and wait
    assert acc.beside["prewarm until the JIT is quiet"] == pytest.approx(3.0)
    assert acc.beside["waiting, warm, for the hand-over"] == pytest.approx(1.4)
    text = timing_markdown(pd.DataFrame([handed, handed, plain]), timeline)
    assert "| On the harness's CPU | Time |" in text and "| waiting, warm, for the hand-over | 0.0 min |" in text
    assert account(pd.DataFrame([plain]), timeline).beside is None


def _handed(**times: float) -> dict[str, object]:
    """A handed-over process's row: 3 s on the lab's CPU, 100 ms of it re-warm, and `times`."""
    return {
        "status": "ok",
        "duration_s": 3.0,
        "start_to_main_ms": 50.0,
        "verify_ms": 100.0,
        "prewarm_ms": 1500.0,
        "rewarm_ms": 100.0,
        "handover_wait_ms": 0.0,
        **times,
    }


def test_extra_rounds_and_the_time_to_the_warm_line_are_said_apart():
    handed = _handed(bursts_ms=2500.0, extra_rounds_ms=1200.0, warm_line_ms=3000.0, warm_cpu_ms=2400.0)
    timeline = [TimelineRecord(phase="session", what="", seconds=60.0, ended_at="")]
    acc = account(pd.DataFrame([handed, handed]), timeline)
    assert acc.extra_rounds_s == pytest.approx(2.4) and acc.warm_line_s == pytest.approx(6.0)
    assert acc.parts["measured samples (paired bursts)"] == pytest.approx(5.0)  # the extra rounds are samples too
    text = timing_markdown(pd.DataFrame([handed, handed]), timeline)
    assert "0.0 min (4.0% of the run) were extra rounds" in text
    assert "From each launch to its warm line" in text and "0.1 min in all" in text and "ran 80% on the CPU" in text
    plain = {k: v for k, v in handed.items() if k not in ("extra_rounds_ms", "warm_line_ms", "warm_cpu_ms")}
    text = timing_markdown(pd.DataFrame([plain]), timeline)
    assert "extra rounds" not in text and "warm line" not in text  # a run made before schema 11


def test_a_warm_up_finished_on_the_lab_cpu_is_its_own_line_inside_the_run():
    handed = _handed(bursts_ms=1500.0, warm_line_ms=2500.0, warm_cpu_ms=1200.0, lab_warm_ms=1000.0)
    timeline = [TimelineRecord(phase="session", what="", seconds=10.0, ended_at="")]
    acc = account(pd.DataFrame([handed, handed]), timeline)
    assert acc.parts["warm-up finished on the lab's CPU (moved there before it was warm)"] == pytest.approx(2.0)
    assert acc.parts["process other (dataset load, environment probe, exit)"] == pytest.approx(2 * 0.4)
    assert sum(acc.parts.values()) == pytest.approx(10.0)
    plain = {k: v for k, v in handed.items() if k != "lab_warm_ms"}
    assert (
        "warm-up finished on the lab's CPU (moved there before it was warm)"
        not in account(pd.DataFrame([plain]), timeline).parts
    )
