import shutil

import pytest
from scipy import stats

from harness.model.errors import CellError
from harness.normalize.bdn import normalize_bdn_cell
from tests.conftest import FIXTURES


def test_a_real_cell_folder_normalizes_to_bdn_statistics_with_a_99_percent_interval(fixture_dir):
    outcome = normalize_bdn_cell(fixture_dir)
    s = outcome.statistics
    assert s.n == 3
    assert s.mean_ns == pytest.approx(1690.880983909153)
    half = stats.t.ppf(0.995, 2) * 113.92328139084584
    assert s.ci99_half_width_ns == pytest.approx(half)
    assert outcome.fields["allocated_bytes_per_op"] == 696
    assert outcome.fields["library"] == "System.Text.Json"
    assert outcome.fields["runtime_version"].startswith("10.")
    assert outcome.fields["engine_version"].startswith("BenchmarkDotNet 0.")  # as BenchmarkDotNet's report names itself
    assert isinstance(outcome.fields["runtime_switches"], dict)
    assert outcome.verification.status == "passed"
    assert outcome.isa_flags["avx512f"] is True


def test_an_unverified_cell_keeps_the_labs_message():
    outcome = normalize_bdn_cell(FIXTURES / "dotnet-cell-unverified")
    assert outcome.verification.status == "failed"
    assert "MyInteger: expected 123, got 0" in outcome.verification.message
    assert outcome.isa_flags["vector128"] is False


def test_a_cell_folder_without_its_report_is_a_cell_error(tmp_path, fixture_dir):
    shutil.copytree(fixture_dir, tmp_path / "cell")
    shutil.rmtree(tmp_path / "cell" / "bdn")
    with pytest.raises(CellError, match="no JsonLab.Measurement.CellBenchmark-report-full.json"):
        normalize_bdn_cell(tmp_path / "cell")


def test_a_zero_mean_after_overhead_subtraction_is_a_cell_error_not_a_crash(tmp_path, fixture_dir):
    import json

    shutil.copytree(fixture_dir, tmp_path / "cell")
    report_path = next((tmp_path / "cell" / "bdn").rglob("*-report-full.json"))
    report = json.loads(report_path.read_text())
    for key in ("Mean", "Median", "Min", "Max"):
        report["Benchmarks"][0]["Statistics"][key] = 0.0
    report_path.write_text(json.dumps(report))
    with pytest.raises(CellError, match="0 ns per operation after subtracting its overhead"):
        normalize_bdn_cell(tmp_path / "cell")


@pytest.mark.parametrize(
    "field, value, says",
    [
        ("Median", "NaN", "median_ns = nan"),
        ("Median", -5.0, "median_ns = -5.0"),
        ("Mean", "NaN", "mean_ns = nan"),
        ("Max", "Infinity", "max_ns = inf"),
    ],
)
def test_a_lab_reporting_a_nan_or_negative_time_fails_the_cell_with_the_reason(
    tmp_path, fixture_dir, field, value, says
):
    """Issue 44: a NaN or negative median read 'not measured' without a reason; the cell now fails saying which value
    the lab reported."""
    import json

    from harness.session.processes.cell_rows import _normalized

    cell = tmp_path / "cell"
    shutil.copytree(fixture_dir, cell)
    report = next((cell / "bdn").rglob("*-report-full.json"))
    text = report.read_text()
    data = json.loads(text)
    data["Benchmarks"][0]["Statistics"][field] = float(value) if isinstance(value, str) else value
    report.write_text(json.dumps(data))
    reason = _normalized(lambda: normalize_bdn_cell(cell), cell, "dotnet")
    assert isinstance(reason, str) and says in reason and "finite" in reason, reason


def test_undecodable_lab_output_fails_the_cell_with_the_reason(tmp_path, fixture_dir):
    from harness.session.processes.cell_rows import _normalized

    cell = tmp_path / "cell"
    shutil.copytree(fixture_dir, cell)
    (cell / "env.json").write_bytes(b'{"runtime": "\xff\xfe"}')
    reason = _normalized(lambda: normalize_bdn_cell(cell), cell, "dotnet")
    assert isinstance(reason, str) and "env.json is not valid UTF-8 JSON" in reason and "utf-8" in reason.lower()


@pytest.mark.parametrize(
    "file, change, says",
    [
        ("env.json", lambda d: d.pop("runtime"), "env.json has no 'runtime' (its keys: arch,"),
        ("env.json", lambda d: d.update(isa=["avx2"]), "env.json: 'isa' is ['avx2'], not an object"),
        ("cell.json", lambda d: d.update(library_version=13), "cell.json: 'library_version' is 13, not a string"),
        ("verification.json", lambda d: d.pop("status"), "verification.json has no 'status'"),
        ("cell.json", lambda d: d.update(raw_report="../../etc/passwd"), "names a raw report outside the cell folder"),
    ],
)
def test_a_contract_file_with_a_missing_or_mistyped_key_fails_the_cell_naming_lab_file_and_key(
    tmp_path, fixture_dir, file, change, says
):
    import json

    from harness.session.processes.cell_rows import _normalized

    cell = tmp_path / "cell"
    shutil.copytree(fixture_dir, cell)
    data = json.loads((cell / file).read_text())
    change(data)
    (cell / file).write_text(json.dumps(data))
    reason = _normalized(lambda: normalize_bdn_cell(cell), cell, "dotnet")
    assert isinstance(reason, str) and reason.startswith("lab dotnet: ") and says in reason, reason


def test_a_cell_the_lab_marked_failed_keeps_the_labs_own_words(tmp_path, fixture_dir):
    import json

    from harness.session.processes.cell_rows import _normalized

    cell = tmp_path / "cell"
    shutil.copytree(fixture_dir, cell)
    failed = {"status": "failed", "error": "Jil cannot deserialize X", "hint": "a known gap"}
    (cell / "cell.json").write_text(json.dumps(failed))
    assert _normalized(lambda: normalize_bdn_cell(cell), cell, "dotnet") == "Jil cannot deserialize X (a known gap)"
