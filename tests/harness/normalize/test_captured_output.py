"""The normalizers on raw output real cells wrote (tests/fixtures/captured/README.md says where it comes from): the
numbers they give are those the run stored for the same process."""

from __future__ import annotations

import json

import pytest

from harness.normalize import NORMALIZERS
from harness.normalize.hyperfine import normalize_cold_cell
from tests.conftest import FIXTURES

CAPTURED = FIXTURES / "captured"


def test_a_paired_member_of_the_dotnet_lab_normalizes_to_the_row_its_run_stored():
    outcome = NORMALIZERS["samples"](CAPTURED / "paired-dotnet")
    stats = outcome.statistics
    # run 2026-11-25T01-51-32Z, results.jsonl: 001:file-newtonsoft@no-avx512/8.0.0 round 1
    assert stats.n == 15
    assert stats.mean_ns == pytest.approx(1173724.4876666667)
    assert stats.median_ns == pytest.approx(1043569.105)
    assert (stats.min_ns, stats.max_ns) == pytest.approx((1019701.947, 1766034.0))
    assert stats.ci99_lower_ns == pytest.approx(960695.056520285)
    assert outcome.fields["allocated_bytes_per_op"] == 771744
    assert outcome.fields["library"] == "Newtonsoft.Json" and outcome.fields["library_version"] == "13.0.4"
    assert outcome.fields["engine_version"] == "jsonlab paired bursts 1"
    assert outcome.verification.status == "passed"


def test_a_node_lab_process_normalizes_to_the_row_its_run_stored():
    outcome = NORMALIZERS["samples"](CAPTURED / "node-mitata")
    stats = outcome.statistics
    # run 2026-11-25T05-06-04Z, results.jsonl: 006:parse-string-canada@native/24.21.0 round 1
    assert stats.n == 3
    assert stats.mean_ns == pytest.approx(5075808.833333339)
    assert stats.median_ns == pytest.approx(4949837.5)
    assert (stats.min_ns, stats.max_ns) == pytest.approx((4857502.5, 5420086.500000015))
    assert stats.ci99_lower_ns == pytest.approx(3346997.513312648)
    assert outcome.fields["allocated_bytes_per_op"] is None  # V8 does not count a call's allocations
    assert outcome.fields["library"] == "JSON (V8 built-in)"
    assert outcome.fields["library_version"] == "13.6.233.17-node.53"
    assert outcome.fields["engine_version"] == "mitata 1.0.34"
    assert outcome.verification.status == "passed"


def test_a_native_lab_process_normalizes_to_the_row_its_run_stored():
    outcome = NORMALIZERS["gbench"](CAPTURED / "cpp-gbench")
    stats = outcome.statistics
    # run 2026-11-26T00-38-40Z (the e2e smoke run), results.jsonl: 006:cpp-parse-rapidjson-canada@native/gcc-12.2.0
    # round 1
    assert stats.n == 3
    assert stats.mean_ns == pytest.approx(5216113.000036179)
    assert stats.median_ns == pytest.approx(5211359.999975684)
    assert (stats.min_ns, stats.max_ns) == pytest.approx((5207051.250181394, 5229927.749951458))
    assert stats.ci99_lower_ns == pytest.approx(5146455.773003879)
    assert outcome.fields["allocated_bytes_per_op"] is None  # C++ allocations are not counted
    assert outcome.fields["library"] == "RapidJSON" and outcome.fields["library_version"] == "1.1.0"
    assert outcome.fields["engine_version"] == "Google Benchmark 1.7.1"
    assert outcome.fields["runtime"] == "GCC" and outcome.fields["payload_bytes"] == 2251051
    assert outcome.verification.status == "passed"


def test_a_cold_cell_normalizes_to_the_row_its_run_stored():
    probe = json.loads((CAPTURED / "cold-hyperfine" / "probe.json").read_text())
    outcome = normalize_cold_cell(
        CAPTURED / "cold-hyperfine", probe["env"], probe["variant"], probe["verification"], probe["isa_flags"]
    )
    stats = outcome.statistics
    # run 2026-11-25T01-51-32Z, results.jsonl: 005:cold-ser-stj@native/10.0.12
    assert stats.n == 20
    assert stats.mean_ns == pytest.approx(92522284.0)
    assert stats.median_ns == pytest.approx(91953883.0)
    assert (stats.min_ns, stats.max_ns) == pytest.approx((79979028.0, 108930999.0))
    assert stats.ci99_lower_ns == pytest.approx(87280990.09365517)
    assert outcome.fields["peak_rss_bytes"] == 45109248
    assert outcome.fields["prepare_median_ns"] == pytest.approx(56738735.5)
    assert outcome.fields["engine_version"] == "hyperfine" and outcome.fields["library"] == "System.Text.Json"
