"""The page over a run's hosts: the hosts table with each host's noise figures, each figure read on the host nearest
its published CPU, and every figure's verdict on each host, those that differ first."""

import json
import re

import pandas as pd

from analysis.render.hosts_report import is_hosts_run, write_hosts_report
from analysis.render.html import render_html
from harness.config.experiment.experiments import load_experiments
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
    path = write_hosts_report(run, lambda folder: written.append(folder.name), lambda text, out, up=0: "<html/>")
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


def _hosts_run(tmp_path, experiment="000", facts_reason=""):
    """A run over two hosts whose figures belong to `experiment`; hosts.json's facts carry `facts_reason`."""
    run = tmp_path / "r2"
    run.mkdir()
    facts = {"cpu_vendor": "amd", "cpu_family": 0x1A, "cpu_model_number": 0x02, "arch": "x64", "reason": facts_reason}
    hosts = [{"host": name, "state": "done", "exit_code": 0, "seconds": 60, "facts": facts} for name in ("one", "two")]
    (run / "hosts.json").write_text(json.dumps({"schema_version": 10, "hosts": hosts}))
    for name in ("one", "two"):
        _host(run, name, [("a", 1.49, "reproduced")])
        table = run / "hosts" / name / "report" / "tables" / "reproduction.csv"
        table.write_text(table.read_text().replace("\n000,", f"\n{experiment},"))
    return run


def _kept_copy(run, host, experiment):
    """The host's run folder keeps a copy of write-up 000 under the id `experiment`, as a run of a file no longer in
    this checkout would."""
    kept = run / "hosts" / host / "experiments"
    kept.mkdir()
    source = next((REPO_ROOT / "experiments").glob("000-*.toml")).read_text()
    (kept / f"{experiment}-gone-from-the-repo.toml").write_text(source.replace('id = "000"', f'id = "{experiment}"', 1))


def test_a_figure_of_an_experiment_only_the_run_kept_is_read_on_its_nearest_host(tmp_path):
    run = _hosts_run(tmp_path, "950")
    _kept_copy(run, "two", "950")
    text = write_hosts_report(run, lambda folder: folder, lambda text, out, up=0: "<html/>").read_text()
    nearest = text.split("## Each figure on the host nearest its published CPU")[1]
    assert "| 950 | s | a | base | time | native | 10.0.12 | 1.5 | one | 1.49 | reproduced |" in nearest
    assert "**Experiment files**" not in text, "the hosts' own copies: nothing to say"


def test_a_figure_of_an_experiment_found_nowhere_says_so_and_the_page_is_written(tmp_path):
    run = _hosts_run(tmp_path, "951")
    text = write_hosts_report(run, lambda folder: folder, lambda text, out, up=0: "<html/>").read_text()
    assert (
        "| 951 | s | a | base | time | native | 10.0.12 | 1.5 |  |  | not read: its published CPU is unknown |" in text
    )
    assert "experiment 951 is in no host's experiment files nor this checkout's" in text
    assert "**Experiment files**: Experiment 951 is in neither the run's experiment files nor this checkout's" in text


def test_the_page_links_each_host_s_report_and_a_hostile_link_in_its_facts_stays_text(tmp_path):
    run = _hosts_run(tmp_path, facts_reason="[see](../../../../etc/passwd)")
    for name in ("one", "two"):
        (run / "hosts" / name / "report" / "report.html").write_text("<html/>")
    path = write_hosts_report(run, lambda folder: folder, render_html)
    text = path.read_text()
    assert "Reports: [one](../hosts/one/report/report.md), [two](../hosts/two/report/report.md)" in text
    assert "[see]\\(../../../../etc/passwd" in text
    page = (path.parent / "report.html").read_text()
    assert '<a href="../hosts/one/report/report.html">one</a>' in page, "the host's page, as report.html beside it"
    assert not any("etc/passwd" in href for href in re.findall(r'href="([^"]*)"', page))


def test_hosts_whose_runs_kept_no_experiment_files_are_judged_against_the_checkout_and_the_page_says_so(tmp_path):
    text = write_hosts_report(_hosts_run(tmp_path), lambda folder: folder, lambda text, out, up=0: "").read_text()
    assert "**Experiment files**: No host's run folder keeps a copy of the experiment files it measured" in text
    assert "| 000 | s | a | base | time | native | 10.0.12 | 1.5 | one | 1.49 | reproduced |" in text
