"""`just import` of one benchmark class published on three runtimes (tests/fixtures/bdn-reports/runtimes/): one
benchmark per figure, its claims within each runtime and across runtimes, the nearest patch of each runtime as its
stand-in; filled only where the import asks (variant, dataset, operation, title, write-up), the file passes every
check and plans each side of every claim on its own runtime."""

from __future__ import annotations

import re

from harness.bdn.importer import import_reports
from harness.cli import main
from harness.config.isa import load_isa_table
from harness.config.lab.labs import load_labs
from harness.planning.run_plan import RunOptions, resolve_plan
from tests.harness.bdn.test_bdn_import import REPORTS, _loads

RUNTIMES = sorted((REPORTS / "runtimes").glob("net*/*-report-github.md"))
VARIANTS = {"Stj": "stj-default", "Newtonsoft": "newtonsoft-default"}


def _imported(exp_id: str = "950") -> str:
    return import_reports(RUNTIMES, exp_id, load_labs()["dotnet"], load_isa_table()).text


def test_a_class_on_three_runtimes_is_one_benchmark_per_figure_with_its_claims_across_runtimes():
    data = _loads(_imported())
    assert len(data["benchmarks"]) == 4 and len(data["groups"]) == 2  # Stj and Newtonsoft, Count 1 and 1000
    stand_ins = {h["runtime"]: h["lab_runtimes"][0] for h in data["hardware"].values()}
    assert stand_ins == {".NET 8.0.22": "8.0.31", ".NET 9.0.11": "9.0.20", ".NET 10.0.1": "10.0.12"}
    assert {h["isa_level"] for h in data["hardware"].values()} == {"no-avx512"}  # x86-64-v3 on the job lines
    across = [c for c in data["claims"] if c["scenario"].endswith("across runtimes")]
    assert len(across) == 12 and len(data["claims"]) == 24  # 4 figures × 3 runtimes, within and across
    chain = [c for c in across if c["scenario"] == "Serialize (Count=1): Stj across runtimes"]
    assert [(c["at"]["runtime"], c["reference_at"]["runtime"]) for c in chain] == [
        ("8.0.31", "8.0.31"),  # the oldest runtime's row: the reference of the chain
        ("9.0.20", "8.0.31"),
        ("10.0.12", "8.0.31"),
    ]
    assert {c["benchmark"] for c in chain} == {c["derived_baseline"] for c in chain} and len(
        {c["benchmark"] for c in chain}
    ) == 1
    assert [c["mean_ns"] for c in chain] == [612.4, 541.8, 455.0]
    assert "note" not in chain[1]  # one machine: nothing mixed into the ratio


def test_filled_only_where_the_import_asks_it_passes_the_checks_and_plans_each_runtime(tmp_path, capsys):
    text = _imported()
    text = re.sub(
        r'variant = "TODO: the dotnet variant of (\w+)"', lambda m: f'variant = "{VARIANTS[m.group(1)]}"', text
    )
    text = re.sub(r'dataset = "TODO: the dataset of \w+ \(Count=(\d+)\)"', r'dataset = "simple-models-\1"', text)
    text = re.sub(r'operation = "TODO[^"]*"', 'operation = "serialize"', text)
    text = re.sub(r'(title|writeup) = "TODO[^"]*"', r'\1 = "filled"', text)
    assert "TODO" not in "\n".join(line for line in text.splitlines() if not line.startswith("#"))
    folder = tmp_path / "experiments"
    folder.mkdir()
    (folder / "950-serialize.toml").write_text(text)
    assert main(["check", "--experiments-dir", str(folder)]) == 0, capsys.readouterr().err
    assert "ok  experiment 950  4 benchmarks, 24 claims" in capsys.readouterr().out
    plan = resolve_plan(
        RunOptions(profile="default", experiments=("950",), experiments_dir=folder, build=False, check_tools=False)
    )
    assert {c.runtime for c in plan.cells} >= {"8.0.31", "9.0.20", "10.0.12"}


def test_the_import_command_keeps_the_reports_beside_the_experiment(tmp_path, capsys):
    out = tmp_path / "950-serialize.toml"
    assert main(["import", *map(str, RUNTIMES), "--id", "950", "--out", str(out)]) == 0
    kept = sorted(p.name for p in (tmp_path / "reports" / "950").iterdir())
    assert kept == [f"0{n}-JsonLab.Bench.Serialize-report-github.md" for n in (1, 2, 3)]
    assert (tmp_path / "reports" / "950" / kept[1]).read_bytes() == RUNTIMES[1].read_bytes()
    text = out.read_text()
    assert "# The reports are kept in reports/950/ beside this file" in text
    # each row's comment names the kept copy (its line numbers are the copy's), never the file the user passed
    comments = re.findall(r"\],  # (.+) line \d+$", text, re.M)
    assert set(comments) == {f"reports/950/{name}" for name in kept} and str(RUNTIMES[0].parent) not in text
