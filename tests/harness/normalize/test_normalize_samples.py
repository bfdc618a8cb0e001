"""The language-neutral raw format (harness/normalize/samples.py), as lab/reference-node writes it."""

import json

import pytest

from harness.model.errors import CellError
from harness.normalize import NORMALIZERS


def _cell(folder, iterations, status="measured"):
    (folder / "env.json").write_text(
        json.dumps(
            {
                "language": "JavaScript",
                "runtime": "Node.js",
                "runtime_version": "24.21.0",
                "arch": "x64",
                "cpus_allowed": "1",
                "isa": {},
                "isa_readback": False,
                "runtime_switches": {"JSONLAB_V8_FLAGS": "--no-enable-avx2"},
            }
        )
    )
    (folder / "verification.json").write_text(
        json.dumps({"status": "passed", "message": "matches", "mismatch_count": 0, "round_trip": None})
    )
    (folder / "cell.json").write_text(
        json.dumps(
            {
                "status": status,
                "library": "JSON (V8 built-in)",
                "library_version": "13.6",
                "dataset_sha256": "ab",
                "payload_form": "utf8_bytes",
                "model_type": "document",
                "raw_report": "samples.json",
                "invocation_count": 56,
                "error": "boom",
                "hint": "h",
                "timings_ms": {"verify_ms": 54.9, "prewarm_ms": 600.7},
            }
        )
    )
    (folder / "samples.json").write_text(
        json.dumps(
            {
                "engine": {"name": "mitata", "version": "1.0.34"},
                "iterations_ns": iterations,
                "allocated_bytes_per_op": 476.0,
            }
        )
    )


def test_iterations_become_the_process_statistics_with_the_labs_identity(tmp_path):
    _cell(tmp_path, [110.0, 100.0, 90.0, 100.0])
    outcome = NORMALIZERS["samples"](tmp_path)
    assert outcome.statistics.n == 4 and outcome.statistics.mean_ns == 100.0 and outcome.statistics.median_ns == 100.0
    assert outcome.statistics.ci99_lower_ns < 100.0 < outcome.statistics.ci99_upper_ns
    assert outcome.fields["engine_version"] == "mitata 1.0.34" and outcome.fields["allocated_bytes_per_op"] == 476.0
    assert outcome.fields["cpuset_effective"] == "1" and outcome.fields["runtime_switches"] == {
        "JSONLAB_V8_FLAGS": "--no-enable-avx2"
    }
    assert outcome.verification.status == "passed" and outcome.isa_flags == {}


def test_a_failed_cell_or_empty_samples_is_a_cell_error(tmp_path):
    _cell(tmp_path, [], status="measured")
    with pytest.raises(CellError, match="no positive iteration times"):
        NORMALIZERS["samples"](tmp_path)
    _cell(tmp_path, [1.0], status="failed")
    with pytest.raises(CellError, match="boom"):
        NORMALIZERS["samples"](tmp_path)
