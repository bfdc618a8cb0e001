"""Property-based fuzzing (hypothesis) of the three kinds of file a user hands the lab most: experiment files,
BenchmarkDotNet reports for `just import`, and a run folder's results.jsonl. Whatever the bytes, the lab answers with
a result or a HarnessError (an `error:` and a `hint:` line), never another exception; what it accepts is sane."""

from __future__ import annotations

import json
import math
import pathlib
import re
import tempfile

import tomllib
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from harness.bdn.importer import import_reports
from harness.config.experiment.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.config.lab.labs import load_labs
from harness.model.errors import HarnessError
from harness.model.folder.records import ResultRow
from harness.model.folder.store import RunStore
from tests.conftest import FIXTURES
from tests.harness.model.test_records import BASE as ROW_BASE

FUZZ = settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
BASE = (FIXTURES / "broken-experiments" / "000-valid-base.toml").read_text()
VALUE_LINES = [i for i, line in enumerate(BASE.splitlines()) if re.match(r"^[a-z_]+ = ", line)]

#: TOML literals of every kind, valid and not: numbers at the edges, strings with anything in them, arrays, garbage.
toml_literals = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True).map(
        lambda x: "nan" if math.isnan(x) else ("inf" if x == math.inf else "-inf" if x == -math.inf else repr(x))
    ),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
    st.text(max_size=300).map(lambda s: json.dumps(s, ensure_ascii=False)),
    st.text(alphabet="\u202e\u0007\x1b\x7f\u2066abc", max_size=20).map(lambda s: json.dumps(s)),
    st.lists(st.integers(-5, 5), max_size=4).map(lambda items: "[" + ", ".join(map(str, items)) + "]"),
    st.sampled_from(["true", "false", "[[[[", '"', "'''", "{ a = 1 }", "1979-05-27", "0x10", "1e999", "-0.0"]),
    st.text(max_size=40),
)


@FUZZ
@given(st.lists(st.tuples(st.sampled_from(VALUE_LINES), toml_literals), min_size=1, max_size=3))
def test_a_mutated_experiment_file_loads_sane_or_is_a_harness_error(edits):
    lines = BASE.splitlines()
    for index, literal in edits:
        key = lines[index].split(" = ", 1)[0]
        lines[index] = f"{key} = {literal}"
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "900-fuzz.toml"
        path.write_text("\n".join(lines) + "\n")
        try:
            experiments = load_experiments(pathlib.Path(folder))
        except HarnessError:
            return
    for claim in experiments["900"].claims:
        for value in (claim.mean_ns, claim.ratio):
            assert value is None or (math.isfinite(value) and 1e-4 <= value <= 1e13), claim
        assert claim.allocated_bytes is None or 0 <= claim.allocated_bytes <= 10**12


REPORT = (FIXTURES / "bdn-reports" / "001-2-single-employee-report-github.md").read_text()
CELL = st.one_of(
    st.text(max_size=30).map(lambda s: s.replace("|", "").replace("\n", " ")),
    st.sampled_from(["914,4 ns", "1.536,0 ns", "NA", "-", "?", "nan ns", "inf ns", "1e999 ns", "0 ns", "-5 ns"]),
    st.floats(allow_nan=True, allow_infinity=True).map(lambda x: f"{x} ns"),
    st.floats(allow_nan=True, allow_infinity=True).map(str),
)


@FUZZ
@given(st.lists(st.tuples(st.integers(0, 1), st.integers(0, 9), CELL), min_size=1, max_size=6))
def test_a_mutated_benchmarkdotnet_report_imports_valid_toml_or_is_a_harness_error(edits):
    lines = REPORT.splitlines()
    rows = [i for i, line in enumerate(lines) if line.startswith("| ") and "---" not in line][1:]
    for row, column, text in edits:
        cells = lines[rows[row]].strip("|").split("|")
        cells[column] = f" {text} "
        lines[rows[row]] = "|" + "|".join(cells) + "|"
    with tempfile.TemporaryDirectory() as folder:
        path = pathlib.Path(folder) / "Bench-report-github.md"
        path.write_text("\n".join(lines) + "\n")
        try:
            result = import_reports([path], "900", load_labs(accepted=frozenset())["dotnet"], load_isa_table())
        except HarnessError:
            return
    data = tomllib.loads(result.text)
    for claim in data.get("claims", []):
        for key in ("mean_ns", "ratio"):
            assert key not in claim or (math.isfinite(claim[key]) and claim[key] > 0), claim


ROW = ResultRow(**ROW_BASE, status="ok", mean_ns=5.0, verification_status="passed").to_dict()
JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3),
    max_leaves=8,
)


@FUZZ
@given(
    field=st.sampled_from(sorted(ROW)),
    value=JSON_VALUES,
    garbage=st.binary(max_size=60),
    where=st.sampled_from(["replace a field", "append bytes", "insert bytes", "cut the file"]),
    cut=st.integers(0, 400),
)
def test_a_damaged_results_file_reads_or_is_a_harness_error(field, value, garbage, where, cut):
    good = json.dumps(ROW, sort_keys=True).encode()
    second = json.dumps({**ROW, "round_index": 1, "round_count": 2, "cell_id": "000:c@native"}, sort_keys=True)
    data = good + b"\n" + second.encode() + b"\n"
    if where == "replace a field":
        data = good + b"\n" + json.dumps({**ROW, field: value}, sort_keys=True, allow_nan=True).encode() + b"\n"
    elif where == "append bytes":
        data += garbage
    elif where == "insert bytes":
        data = good + b"\n" + garbage + b"\n" + second.encode() + b"\n"
    else:
        data = data[:cut]
    with tempfile.TemporaryDirectory() as folder:
        store = RunStore(pathlib.Path(folder))
        (store.directory / "results.jsonl").write_bytes(data)
        try:
            rows = store.rows()
        except HarnessError:
            return
    for row in rows.values():
        assert row.mean_ns is None or (math.isfinite(row.mean_ns) and row.mean_ns > 0)
