"""The page over a run's hosts: the hosts table and every figure's verdict on each host, those that differ first."""

import json

from analysis.render.hosts_report import is_hosts_run, write_hosts_report


def _host(run, name, verdicts):
    tables = run / "hosts" / name / "report" / "tables"
    tables.mkdir(parents=True)
    (run / "hosts" / name / "results.jsonl").write_text("")
    lines = [
        "experiment,scenario,published_variant,reference,metric,isa_level,runtime,published_ratio,"
        "measured_ratio,verdict"
    ]
    for variant, ratio, verdict in verdicts:
        lines.append(f"000,s,{variant},base,time,native,10.0.12,1.5,{ratio},{verdict}")
    (tables / "reproduction.csv").write_text("\n".join(lines) + "\n")


def test_each_host_gets_its_report_and_the_run_a_page_with_the_verdicts_side_by_side(tmp_path):
    run = tmp_path / "r1"
    run.mkdir()
    facts = {
        "cpu_model": "AMD EPYC",
        "cpus": 2,
        "arch": "x64",
        "kernel": "6.18",
        "engine_version": "20.10",
        "isolated_cpus": None,
        "reason": "",
    }
    hosts = [
        {"host": "local", "state": "done", "exit_code": 0, "seconds": 120, "facts": facts},
        {"host": "second", "state": "lost", "exit_code": 1, "seconds": 30, "last_line": "engine gone", "facts": facts},
        {"host": "third", "state": "unreachable", "exit_code": None, "facts": {**facts, "reason": "no answer"}},
    ]
    (run / "hosts.json").write_text(json.dumps({"schema_version": 1, "hosts": hosts}))
    _host(run, "local", [("a", 1.49, "reproduced"), ("b", 1.2, "same direction only")])
    _host(run, "second", [("a", 1.51, "reproduced"), ("b", 1.5, "reproduced")])
    assert is_hosts_run(run)
    written = []
    path = write_hosts_report(run, lambda folder: written.append(folder.name), lambda text, out: "<html/>")
    assert written == ["local", "second"], "every measured host's own report first"
    text = path.read_text()
    assert "# Run r1 over 3 hosts" in text
    assert "| second | lost |" in text and "engine gone" in text and "| third | unreachable |" in text
    assert "1 of 2 figures measured on every host have the same verdict on each (local, second)" in text
    table = text.split("## Verdicts per host")[1]
    assert table.index("| 000 | s | b |") < table.index("| 000 | s | a |"), "the figure that differs first"
    assert (run / "report" / "tables" / "verdicts-by-host.csv").is_file()
