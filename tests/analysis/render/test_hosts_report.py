"""The page over a run's hosts: the hosts table with each host's noise figures, each figure read on the host nearest
its published CPU, and every figure's verdict on each host, those that differ first."""

import json

import pandas as pd

from analysis.render.hosts_report import is_hosts_run, write_hosts_report
from harness.config.experiments import load_experiments
from harness.model.defaults import REPO_ROOT

#: Experiment 000's published CPUs: a Ryzen 7 2700X (Zen+) and an i7-6700 (Skylake).
ZEN_PLUS, SKYLAKE = (load_experiments()["000"].hardware[key].description for key in ("H000a", "H000b"))


def _host(run, name, verdicts, cells=None):
    tables = run / "hosts" / name / "report" / "tables"
    tables.mkdir(parents=True)
    (run / "hosts" / name / "results.jsonl").write_text("")
    rows = [
        dict(
            experiment="000",
            scenario="s",
            published_variant=variant,
            reference="base",
            metric="time",
            isa_level="native",
            runtime="10.0.12",
            published_ratio=1.5,
            published_hardware=ZEN_PLUS if variant == "a" else SKYLAKE,
            primary=True,
            measured_ratio=ratio,
            verdict=verdict,
        )
        for variant, ratio, verdict in verdicts
    ]
    pd.DataFrame(rows).to_csv(tables / "reproduction.csv", index=False)
    if cells is not None:
        pd.DataFrame(cells).to_csv(tables / "results.csv", index=False)


GONE = f"engine gone: cannot connect to unix://{REPO_ROOT}/results/dockerd/second/docker.sock"


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
        "cpu_vendor": "amd",
        "cpu_family": 0x1A,
        "cpu_model_number": 0x02,
        "cpu_flags": ["avx2", "avx512f", "sse2"],
    }
    intel = {**facts, "cpu_vendor": "intel", "cpu_family": 6, "cpu_model_number": 0x5E, "cpu_flags": ["avx2", "sse2"]}
    hosts = [
        {"host": "local", "state": "done", "exit_code": 0, "seconds": 120, "facts": facts},
        {"host": "second", "state": "lost", "exit_code": 1, "seconds": 30, "last_line": GONE, "facts": intel},
        {"host": "third", "state": "unreachable", "exit_code": None, "facts": {**facts, "reason": "no answer"}},
    ]
    (run / "hosts.json").write_text(json.dumps({"schema_version": 1, "hosts": hosts}))
    cells = {
        "status": ["ok", "ok", "ok", "failed"],
        "between_process_cv": [0.01, 0.03, 0.02, None],
        "ratio_rel_ci99": [None, 0.02, 0.04, None],
        "replaced_processes": [1, 0, 2, 0],
        "benchmark": ["base", "x", "y", "z"],
        "baseline": ["base"] * 4,
        "comparison_void": [False] * 4,
    }
    _host(
        run,
        "local",
        [("a", 1.49, "reproduced"), ("b", 1.2, "same direction only"), ("c", None, "bytes equal"), ("d", None, "")],
        cells,
    )
    (run / "hosts" / "local" / "timeline.jsonl").write_text(
        '{"ended_at": "2026-11-26T09:00:57+00:00", "phase": "session", "schema_version": 7, "seconds": 90.0, '
        '"what": "the whole session"}\n'
    )
    _host(run, "second", [("a", 1.51, "reproduced"), ("b", 1.5, "reproduced"), ("d", None, "not measured")])
    assert is_hosts_run(run)
    written = []
    path = write_hosts_report(run, lambda folder: written.append(folder.name), lambda text, out: "<html/>")
    assert written == ["local", "second"], "every measured host's own report first"
    text = path.read_text()
    assert "# Run r1 over 3 hosts" in text
    assert (
        "| second | lost |" in text and "unix://&lt;repo>/results/dockerd/second/docker.sock" in text
    )  # shown as <repo>
    assert str(REPO_ROOT) not in text, (
        "nothing of this checkout's path in a published page" and "| third | unreachable |" in text
    )
    assert "1 of 2 figures measured on every host have the same verdict on each (local, second)" in text
    table = text.split("## Verdicts per host")[1]
    assert table.index("| 000 | s | b |") < table.index("| 000 | s | a |"), "the figure that differs first"
    assert (run / "report" / "tables" / "verdicts-by-host.csv").is_file()
    hosts_csv = pd.read_csv(run / "report" / "tables" / "hosts.csv")
    local = hosts_csv.set_index("host").loc["local"]
    assert (local["process CV"], local["ratio CI99"], local["replaced"]) == ("2.0%", "±3.0%", 3)
    assert (local["wall (min)"], local["measuring (min)"]) == (2.0, 1.5), "its own session, without the wait"
    assert hosts_csv.set_index("host").loc["second", "microarchitecture"] == "Intel Skylake"
    assert list(hosts_csv["vector ISA"][:2]) == ["AVX-512", "AVX2"]
    nearest = text.split("## Each figure on the host nearest its published CPU")[1].split("## Verdicts per host")[0]
    assert "| 000 | s | a | base | time | native | 10.0.12 | 1.5 | local | 1.49 | reproduced |" in nearest, "Zen+: AMD"
    assert "| 000 | s | b | base | time | native | 10.0.12 | 1.5 | second | 1.5 | reproduced | Intel Skylake" in nearest
    assert (
        "| 000 | s | c | base | time | native | 10.0.12 | 1.5 | local |  | bytes equal |" in nearest
    ), "no ratio, measured"
    assert (
        "| 000 | s | d | base | time | native | 10.0.12 | 1.5 |  |  | not measured | no host measured it |" in nearest
    )
