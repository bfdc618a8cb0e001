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


def _paired(folder, native_anchors, sha="ab" * 32):
    """A cell of a paired process of four rounds that also timed the native anchors."""
    _cell(folder, [110.0, 100.0, 90.0, 100.0])
    report = json.loads((folder / "samples.json").read_text())
    report["paired"] = {"members": ["a", "b"], "calls_per_burst": 10, "native_anchors": native_anchors}
    report["paired"]["native_anchors_sha256"] = sha
    (folder / "samples.json").write_text(json.dumps(report))


def test_a_paired_cell_carries_its_process_native_anchors_and_their_library(tmp_path):
    _paired(tmp_path, {"scan": [5e4, 5.1e4, 4.9e4, 5e4], "walk": [6e4, 6e4, 6.2e4, 5.8e4]})
    fields = NORMALIZERS["samples"](tmp_path).fields
    assert (
        fields["native_anchor_ns"]["walk"] == [6e4, 6e4, 6.2e4, 5.8e4] and fields["native_anchors_sha256"] == "ab" * 32
    )
    _paired(tmp_path, None, None)  # a process that did not time them
    fields = NORMALIZERS["samples"](tmp_path).fields
    assert fields["native_anchor_ns"] is None and fields["native_anchors_sha256"] is None


@pytest.mark.parametrize("anchors", [{"scan": [5e4, 5e4]}, {"scan": [5e4, 0, 5e4, 5e4]}, ["scan"], {"scan": "fast"}])
def test_native_anchors_other_than_one_positive_time_per_round_are_a_cell_error(tmp_path, anchors):
    _paired(tmp_path, anchors)
    with pytest.raises(CellError, match="one positive time per round"):
        NORMALIZERS["samples"](tmp_path)


@pytest.mark.parametrize("sha", [None, 7, "not-hex"])
def test_native_anchors_without_the_sha256_of_their_library_are_a_cell_error(tmp_path, sha):
    _paired(tmp_path, {"scan": [5e4, 5e4, 5e4, 5e4]}, sha)
    with pytest.raises(CellError, match="native_anchors_sha256"):
        NORMALIZERS["samples"](tmp_path)


def _paired_process(tmp_path, rounds_compilations, **more):
    """A paired cell whose process.json (in the folder above it) counted the compilations during its rounds."""
    cell = tmp_path / "cell"
    cell.mkdir()
    _paired(cell, None, None)
    process = {"schema_version": 1, "start_to_main_ms": 40.0, **more}
    if rounds_compilations is not None:
        process["rounds_compilations"] = rounds_compilations
    (tmp_path / "process.json").write_text(json.dumps(process))
    return cell


def test_a_paired_cell_carries_the_compilations_during_its_process_rounds(tmp_path):
    fields = NORMALIZERS["samples"](_paired_process(tmp_path, [0, 2, 40, 41, 43, 43])).fields
    assert fields["rounds_compilations"] == 43 and fields["start_to_main_ms"] == 20.0


def test_a_process_that_did_not_count_them_has_none(tmp_path):
    assert NORMALIZERS["samples"](_paired_process(tmp_path, None)).fields["rounds_compilations"] is None


@pytest.mark.parametrize("counts", [[], [0, 5, 3], [0, -1], "43", [0, 1.5], [True, True]])
def test_rounds_compilations_other_than_a_growing_count_are_a_cell_error(tmp_path, counts):
    with pytest.raises(CellError, match="rounds_compilations"):
        NORMALIZERS["samples"](_paired_process(tmp_path, counts))


def test_a_handed_over_process_gives_each_cell_its_share_of_the_wait_and_the_re_warm(tmp_path):
    fields = NORMALIZERS["samples"](_paired_process(tmp_path, None, handover_wait_ms=900.0, rewarm_ms=60.0)).fields
    assert fields["handover_wait_ms"] == 450.0 and fields["rewarm_ms"] == 30.0  # two members
    (tmp_path / "plain").mkdir()
    plain = NORMALIZERS["samples"](_paired_process(tmp_path / "plain", None, handover_wait_ms=None, rewarm_ms=0.0))
    assert plain.fields["handover_wait_ms"] is None and plain.fields["rewarm_ms"] is None


@pytest.mark.parametrize("wait, rewarm", [(-1.0, 5.0), ("900", 5.0), (900.0, None), (True, 5.0), (float("inf"), 1.0)])
def test_hand_over_times_other_than_two_non_negative_numbers_are_a_cell_error(tmp_path, wait, rewarm):
    with pytest.raises(CellError, match="handover_wait_ms"):
        NORMALIZERS["samples"](_paired_process(tmp_path, None, handover_wait_ms=wait, rewarm_ms=rewarm))
