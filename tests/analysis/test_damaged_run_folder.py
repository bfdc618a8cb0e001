"""A run folder handed to `just report` is untrusted: a damaged hosts.json, conformance.jsonl, run.json or
environment.json gives an `error:` and a `hint:` line, never a traceback (issue 44)."""

from __future__ import annotations

import json
import shutil

import pytest

from analysis.cli import main
from analysis.compute.conformance_matrix import load_conformance
from harness.model.errors import HarnessError
from harness.model.folder.hosts_file import read_hosts_file, write_hosts_file
from harness.model.folder.run_records import HostRecord

#: A noise probe's record as a run writes it (harness/session/rounds/noise_probe.py).
PROBE = {
    "groups": ["001/single@avx2 on 8.0.0", "<script>alert(1)</script>"],
    "rounds": 3,
    "seconds": 41.0,
    "ratios": 12,
    "spread_median": 0.03,
    "steering_rounds": 9,
    "other_rounds": 5,
    "forecast_median_rel_ci": 0.041,
    "probed_claims": 6,
    "inconclusive_probed": 2,
    "claims": 120,
    "forecast_inconclusive": 40.0,
    "budget_min": 57.0,
    "target_rel_ci": 0.02,
    "minutes_for_target": 190.0,
    "schema_version": 7,
}


@pytest.fixture
def run(fake_run, tmp_path):
    copy = tmp_path / fake_run.name
    shutil.copytree(fake_run, copy, ignore=shutil.ignore_patterns("report"))
    return copy


@pytest.mark.parametrize(
    "hosts, says",
    [
        ({"hosts": [{"host": "../../etc", "facts": {}}]}, "which is no host name"),
        ({"hosts": [{"host": "alpha\n", "facts": {}}]}, "which is no host name"),  # `$` alone took a last newline
        ({"hosts": [{"host": "a"}]}, "is not a list of hosts with their facts"),
        ({"hosts": "a"}, "is not a list of hosts with their facts"),
        ([], "is not a list of hosts with their facts"),
    ],
)
def test_a_damaged_hosts_file_is_an_error_naming_it(run, hosts, says):
    (run / "hosts.json").write_text(json.dumps(hosts))
    with pytest.raises(HarnessError, match=says):
        read_hosts_file(run)


def test_a_hosts_file_that_is_not_json_is_an_error(run):
    (run / "hosts.json").write_bytes(b"\xff{")
    with pytest.raises(HarnessError, match="cannot be read"):
        read_hosts_file(run)


def test_a_torn_last_conformance_line_is_left_out(run):
    (run / "conformance.jsonl").write_bytes(b'{"lab": "dotn')
    assert load_conformance(run).empty


@pytest.mark.parametrize(
    "name, content",
    [
        ("run.json", b"{not json"),
        ("run.json", b'{"schema_version": 5, "run_id": 7}'),
        ("environment.json", b"\xff\xfe"),
        ("environment.json", b"[1, 2]"),
        ("noise_probe.json", b"{torn"),
        ("noise_probe.json", json.dumps({**PROBE, "groups": "abc"}).encode()),
        ("noise_probe.json", json.dumps({**PROBE, "rounds": "three"}).encode()),
        ("noise_probe.json", json.dumps({k: v for k, v in PROBE.items() if k != "claims"}).encode()),
    ],
)
def test_a_damaged_run_file_makes_just_report_say_so(run, name, content, capsys):
    (run / name).write_bytes(content)
    assert main(["report", str(run)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and name in err and "hint: " in err


def test_a_host_whose_numbers_are_not_numbers_is_an_error_naming_it(run):
    host = {"host": "a", "state": "done", "facts": {}, "seconds": "soon"}
    (run / "hosts.json").write_text(json.dumps({"schema_version": 1, "hosts": [host]}))
    with pytest.raises(HarnessError, match=r"HostRecord.seconds = 'soon': not a number"):
        read_hosts_file(run)


def test_the_hosts_file_reads_back_what_the_run_wrote(run):
    written = [
        HostRecord(host="local", state="done", facts={"cpus": 2}, exit_code=0, seconds=61.5, images_moved=[]),
        HostRecord(host="box-2", state="lost", facts={}, exit_code=1, last_line="error: engine gone", lost="gone"),
    ]
    write_hosts_file(run, written)
    assert read_hosts_file(run) == written


def test_a_noise_probe_is_reported_beside_what_the_run_reached_and_its_names_stay_text(run):
    (run / "noise_probe.json").write_text(json.dumps(PROBE))
    assert main(["report", str(run)]) == 0
    report = (run / "report" / "report.md").read_text()
    line = next(x for x in report.splitlines() if x.startswith("- Noise probe at the start"))
    assert "2 groups × 3 processes" in line and "±4.10%" in line and "about 40 of its 120 claims" in line
    assert "the run reached ±" in line and "<script>" not in report


@pytest.mark.parametrize("tool", ["report", "designs", "rounds", "anchors"])
def test_a_run_folder_whose_only_line_is_torn_gives_each_tool_an_answer_not_a_traceback(tmp_path, tool, capsys):
    (tmp_path / "results.jsonl").write_text('{"torn', encoding="utf-8")
    out = [] if tool == "report" else ["--out", str(tmp_path / "out")]
    status = main([tool, str(tmp_path), *out])
    said = capsys.readouterr()
    assert "Traceback" not in said.err
    # rounds needs paired processes and says so; the others write their (empty) tables
    assert (status, "has no paired processes" in said.err) == ((2, True) if tool == "rounds" else (0, False))


def _edit_environment(run, edit):
    data = json.loads((run / "environment.json").read_text())
    edit(data)
    (run / "environment.json").write_text(json.dumps(data))


@pytest.mark.parametrize(
    "edit, field",
    [
        (lambda d: d.update(labs="dotnet@10.0.12"), "EnvironmentRecord.labs = 'dotnet@10.0.12': not an object"),
        (lambda d: d["labs"].update({"dotnet@10.0.12": "built"}), "'built' where a LabEnvironment object belongs"),
        (lambda d: d["cpu_hygiene"].update(cpus=[None]), "EnvironmentRecord.cpu_hygiene = {"),
        (lambda d: d["cpu_hygiene"].update(findings=[{"what": 7}]), "its member 'findings': item 0: its member 'what'"),
        (lambda d: d.update(turbo=[1]), "EnvironmentRecord.turbo = [1]"),
        (lambda d: d.update(host={"cpu_flags": "avx2"}), "EnvironmentRecord.host = {'cpu_flags': 'avx2'}"),
    ],
    ids=["labs a string", "a lab a string", "cpus [null]", "a finding's text a number", "turbo a list", "host flags"],
)
def test_a_hostile_environment_value_is_one_error_line_naming_the_file_and_the_field(run, edit, field, capsys):
    _edit_environment(run, edit)
    assert main(["report", str(run)]) == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err and err.count("\n") == 2, err
    assert err.startswith(f"error: {run / 'environment.json'}") and field in err and "\nhint: " in err


def test_a_run_that_measured_nothing_says_so_and_what_to_do(run, capsys):
    (run / "results.jsonl").write_bytes(b"")
    assert main(["report", str(run)]) == 0
    report = (run / "report" / "report.md").read_text()
    first = report.split("## Summary")[0]
    assert "**Nothing measured**: `results.jsonl` holds no result row" in first
    assert f"`just resume default --run-id {run.name}`" in first and "`logs/`" in first
    assert "- Cells: 0.\n" in report


def test_a_run_whose_only_line_is_torn_says_it_measured_nothing_and_names_the_line(run, capsys):
    (run / "results.jsonl").write_bytes(b'{"schema_version": 10, "cell_id": "000:Sys')
    assert main(["report", str(run)]) == 0
    first = (run / "report" / "report.md").read_text().split("## Summary")[0]
    assert (
        "holds only a torn line (below)" in first and "**Set aside**: results.jsonl line 1 could not be read" in first
    )


def test_a_run_without_its_experiment_files_is_judged_against_the_checkout_and_says_so(run):
    shutil.rmtree(run / "experiments")
    assert main(["report", str(run)]) == 0
    first = (run / "report" / "report.md").read_text().split("## Summary")[0]
    assert "**Experiment files**: The run folder keeps no copy of the experiment files it measured" in first
    assert "judged against this checkout's `experiments/` (000, 001)" in first


def test_a_run_whose_copy_lacks_one_experiment_says_which_and_where_it_was_read(run):
    next((run / "experiments").glob("001-*.toml")).unlink()
    assert main(["report", str(run)]) == 0
    first = (run / "report" / "report.md").read_text().split("## Summary")[0]
    assert "The run's copy of its experiment files (`experiments/`) lacks 001: judged against this checkout's" in first


def test_a_run_with_its_own_experiment_files_has_no_such_note(run):
    assert main(["report", str(run)]) == 0
    assert "**Experiment files**" not in (run / "report" / "report.md").read_text()
