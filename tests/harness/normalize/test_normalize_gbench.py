"""Google Benchmark's JSON report (harness/normalize/gbench.py), as lab/cpp writes it: one entry per repetition, the
aggregates beside them ignored, each repetition's real time per call in its unit."""

import json

import pytest

from harness.model.errors import CellError
from harness.normalize import NORMALIZERS
from harness.normalize.gbench import iteration_times_ns


def _run(real_time, unit="ns", run_type="iteration", **extra):
    return {
        "name": "rapidjson/canada/deserialize",
        "run_type": run_type,
        "real_time": real_time,
        "time_unit": unit,
        "iterations": 40,
        **extra,
    }


def _cell(folder, runs):
    (folder / "env.json").write_text(
        json.dumps(
            {
                "language": "C++",
                "runtime": "GCC",
                "runtime_version": "12.2.0",
                "arch": "x64",
                "cpus_allowed": "1",
                "isa": {"avx2": False, "vector128": False},
                "isa_readback": True,
                "runtime_switches": {"SIMDJSON_FORCE_IMPLEMENTATION": "fallback"},
                "libraries": {"RapidJSON": "1.1.0", "Google Benchmark": "1.7.1"},
            }
        )
    )
    (folder / "verification.json").write_text(
        json.dumps(
            {
                "status": "passed",
                "message": "matches",
                "mismatch_count": 0,
                "round_trip": None,
                "payload_bytes": 2251051,
            }
        )
    )
    (folder / "cell.json").write_text(
        json.dumps(
            {
                "status": "measured",
                "library": "RapidJSON",
                "library_version": "1.1.0",
                "dataset_sha256": "ab",
                "payload_form": "utf8_bytes",
                "model_type": "document",
                "raw_report": "gbench.json",
                "invocation_count": 40,
                "timings_ms": {"verify_ms": 30.0, "prewarm_ms": 2000.0},
            }
        )
    )
    (folder / "gbench.json").write_text(json.dumps({"context": {}, "benchmarks": runs}))
    return folder


def test_each_repetition_is_one_iteration_in_nanoseconds_and_the_aggregates_are_left_out():
    report = {
        "benchmarks": [
            _run(4_000_000.0, repetition_index=0),
            _run(4.1, unit="ms", repetition_index=1),
            _run(3900.0, unit="us", repetition_index=2),
            _run(4_000_000.0, run_type="aggregate", aggregate_name="mean"),
        ]
    }
    assert iteration_times_ns(report) == pytest.approx([4_000_000.0, 4_100_000.0, 3_900_000.0])


def test_a_gbench_cell_normalizes_with_the_engine_version_from_env_and_no_allocation(tmp_path):
    outcome = NORMALIZERS["gbench"](_cell(tmp_path, [_run(4e6), _run(5e6), _run(6e6)]))
    assert outcome.statistics.n == 3 and outcome.statistics.mean_ns == pytest.approx(5e6)
    assert outcome.fields["engine_version"] == "Google Benchmark 1.7.1"
    assert outcome.fields["runtime"] == "GCC" and outcome.fields["library"] == "RapidJSON"
    assert outcome.fields["allocated_bytes_per_op"] is None, "C++ allocations are not counted, never guessed"
    assert outcome.fields["payload_bytes"] == 2251051
    assert outcome.isa_flags == {"avx2": False, "vector128": False}


def test_an_errored_repetition_or_an_unknown_unit_fails_the_cell_with_the_reason(tmp_path):
    with pytest.raises(CellError, match="out of memory"):
        iteration_times_ns({"benchmarks": [_run(1.0, error_occurred=True, error_message="out of memory")]})
    with pytest.raises(CellError, match="unknown time unit 'fortnight'"):
        iteration_times_ns({"benchmarks": [_run(1.0, unit="fortnight")]})
    with pytest.raises(CellError, match="no positive iteration times"):
        NORMALIZERS["gbench"](_cell(tmp_path, []))
