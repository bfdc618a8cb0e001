import json

import pandas as pd

from analysis.compute.conformance_matrix import conformance_markdown, conformance_matrix, load_conformance


def _record(parser, file, expectation, outcome, verdict):
    return {
        "lab": "dotnet",
        "runtime": "10.0.12",
        "parser": parser,
        "library": "System.Text.Json",
        "library_version": "10.0.12",
        "description": "JsonDocument.Parse",
        "file": file,
        "expectation": expectation,
        "outcome": outcome,
        "verdict": verdict,
        "detail": "",
        "ms": 0.1,
    }


def test_the_matrix_counts_outcomes_by_expectation_and_lists_the_wrong_files(tmp_path):
    records = [
        _record("p", "y_a.json", "accept", "accepted", "passed"),
        _record("p", "y_b.json", "accept", "rejected", "wrongly rejected"),
        _record("p", "n_a.json", "reject", "accepted", "wrongly accepted"),
        _record("p", "n_b.json", "reject", "crashed", "crashed"),
        _record("p", "i_a.json", "either", "accepted", "accepted (allowed)"),
    ]
    (tmp_path / "conformance.jsonl").write_text("".join(json.dumps(r) + "\n" for r in records))
    results = load_conformance(tmp_path)
    row = conformance_matrix(results).iloc[0]
    assert (
        row.accept_passed,
        row.wrongly_rejected,
        row.reject_passed,
        row.wrongly_accepted,
        row.crashed,
        row.failures,
    ) == (1, 1, 0, 1, 1, 3)
    cells = pd.DataFrame([{"lab": "dotnet", "library": "System.Text.Json", "variant": "stj-jsondocument"}])
    text = conformance_markdown(results, cells)
    assert "## Conformance (JSONTestSuite)" in text
    assert "| dotnet (10.0.12) | `p` | System.Text.Json 10.0.12 | 1/2 | 1 | 0/2 | 1 | 1 / 0 | 1 | 0 |" in text
    assert "- wrongly rejected (1): `y_b.json`" in text and "- crashed (1): `n_b.json`" in text
    assert "1 cells (`stj-jsondocument`): [results](tables/results.csv)" in text


def test_a_run_without_conformance_results_has_no_section(tmp_path):
    assert load_conformance(tmp_path).empty
    assert conformance_markdown(load_conformance(tmp_path), pd.DataFrame()) == ""
