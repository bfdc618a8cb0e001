"""A corpus of broken BenchmarkDotNet reports for `just import`: each is refused with an `error:` line naming the fault,
or has its bad row listed as not read, never misread and never written as an invalid experiment file."""

from __future__ import annotations

import pytest
import tomllib

from harness.bdn.importer import next_experiment_id
from harness.bdn.units import parse_ratio, parse_size_bytes, parse_time_ns
from harness.cli import main
from harness.model.defaults import EXPERIMENTS_DIR
from tests.conftest import FIXTURES

GOOD = (FIXTURES / "bdn-reports" / "001-2-single-employee-report-github.md").read_text()

#: name → (the report's text or bytes, the text its error must contain)
REFUSED = {
    "Latin-1 bytes": (GOOD.encode().replace(b"SystemTextJson", b"SystemT\xe9xtJson"), "is not UTF-8"),
    "a NUL byte": (GOOD.encode().replace(b"SystemTextJson", b"System\x00TextJson"), "is binary"),
    "a bidi override in a method": (
        GOOD.replace("SystemTextJson", "System\u202eTextJson"),
        "invisible character U+202E",
    ),
    "a bell in a method": (GOOD.replace("SystemTextJson", "System\u0007TextJson"), "invisible character U+0007"),
    "a DEL in a method": (GOOD.replace("SystemTextJson", "System\u007fTextJson"), "invisible character U+007F"),
    "the Mean column renamed": (GOOD.replace("|       Mean |", "|    Average |"), "but no Mean column"),
    "no table at all": ("# just a heading\n\nno table here\n", "holds no BenchmarkDotNet table"),
    "an empty file": ("", "holds no BenchmarkDotNet table"),
    "every Mean with a decimal comma": (
        GOOD.replace("500.8 ns", "500,8 ns").replace("1,658.8 ns", "1.658,8 ns"),
        "has a decimal comma",
    ),
    "every Mean NA": (GOOD.replace("500.8 ns", "NA").replace("1,658.8 ns", "NA"), "no row of the report(s)"),
}


@pytest.mark.parametrize("case", REFUSED, ids=list(REFUSED))
def test_a_broken_report_is_refused_with_an_error_line(case, tmp_path, capsys):
    content, expected = REFUSED[case]
    report = tmp_path / "Bench-report-github.md"
    report.write_bytes(content if isinstance(content, bytes) else content.encode())
    out = tmp_path / "900-x.toml"
    assert main(["import", str(report), "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and expected in err, err
    assert not out.exists()


def test_a_decimal_comma_in_one_row_is_listed_as_not_read_never_read_as_ten_times_the_time(tmp_path, capsys):
    report = tmp_path / "Bench-report-github.md"
    report.write_text(GOOD.replace("500.8 ns", "914,4 ns"))
    assert main(["import", str(report), "--out", "-"]) == 0
    out, err = capsys.readouterr()
    assert "9144" not in out and "914.4" not in out
    assert "not read" in err and "decimal comma" in err


def test_a_control_character_in_a_parameter_is_escaped_into_valid_toml(tmp_path, capsys):
    text = (
        "| Method | Size |     Mean | Allocated |\n|------- |----- |---------:|----------:|\n"
        "| Parse  | a\u00a0b |  10.0 ns |      40 B |\n"
    )
    report = tmp_path / "Bench-report-github.md"
    report.write_text(text)
    assert main(["import", str(report), "--out", "-"]) == 0
    tomllib.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "text", ["914,4 ns", "1.536,0 ns", "1,5 us", "nan ns", "inf ns", "1e400 ns", "-", "", "12 parsecs", "1,53 ns"]
)
def test_numbers_that_are_no_invariant_time_are_not_times(text):
    assert parse_time_ns(text) is None


@pytest.mark.parametrize("text", ["3,03 KB", "1.024,5 B", "nan B", "12 apples"])
def test_sizes_that_are_no_invariant_size_are_not_sizes(text):
    assert parse_size_bytes(text) is None


@pytest.mark.parametrize("text", ["0,51", "nan", "inf", "0", "-1", "1,5x slower"])
def test_ratios_that_are_no_invariant_ratio_are_not_ratios(text):
    assert parse_ratio(text) is None


def test_thousands_separators_still_read():
    assert parse_time_ns("1,658.8 ns") == 1658.8 and parse_time_ns("12,345,678 ns") == 12345678
    assert parse_size_bytes("1,024 B") == (1024, 0)


def test_an_id_an_experiment_already_has_is_refused_with_the_next_free_one_and_nothing_is_written(tmp_path, capsys):
    report = tmp_path / "Bench-report-github.md"
    report.write_text(GOOD)
    out = tmp_path / "003-bench.toml"
    assert main(["import", str(report), "--id", "003", "--out", str(out)]) == 2  # experiments/003-*.toml has it
    err = capsys.readouterr().err
    assert err.startswith("error: experiment id 003 is taken: ") and "003-" in err and "hint: give --id " in err
    assert not out.exists() and not (tmp_path / "reports").exists()
    (tmp_path / "951-other.toml").write_text("")  # an experiment of the folder written to
    assert main(["import", str(report), "--id", "951", "--out", str(tmp_path / "951-bench.toml")]) == 2
    free = max(952, int(next_experiment_id(EXPERIMENTS_DIR)))  # past the folder's 951 and experiments/'s ids
    assert f"hint: give --id {free:03d} (the next free id)" in capsys.readouterr().err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["951-other.toml", "Bench-report-github.md"]
    assert main(["import", str(report), "--id", "003", "--out", "-"]) == 2
