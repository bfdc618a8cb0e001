"""`just import` of one report that has it all (tests/fixtures/bdn-reports/format-0.14-JsonLab.Bench.Categories-…):
two categories, one of them without a baseline, two .NET runtimes on x64, an Arm64 job under an x64 CPU line and a
Mono job. Imported through the command, filled where it asks, it passes every check."""

from __future__ import annotations

import re

from harness.cli import main
from tests.harness.bdn.test_bdn_import import REPORTS, _loads

MIXED = REPORTS / "format-0.14-JsonLab.Bench.Categories-report-github.md"


def _imported(tmp_path, capsys) -> tuple[str, str, dict]:
    folder = tmp_path / "experiments"
    folder.mkdir()
    out = folder / "950-categories.toml"
    assert main(["import", str(MIXED), "--id", "950", "--out", str(out)]) == 0
    text = out.read_text()
    return text, capsys.readouterr().err, _loads(text)


def test_the_groups_each_category_s_own_baseline_and_the_one_to_choose(tmp_path, capsys):
    _, err, data = _imported(tmp_path, capsys)
    groups = {g["id"]: g for g in data["groups"]}
    assert set(groups) == {
        "Categories-Deserialize-.NET-8.0",  # .NET 8.0 and 9.0 on x64: one group, its figures across runtimes
        "Categories-Serialize-.NET-8.0",
        "Categories-Deserialize-Arm64",
        "Categories-Serialize-Arm64",
    }
    assert groups["Categories-Deserialize-.NET-8.0"]["baseline"] == "NewtonsoftDeserialize"
    assert groups["Categories-Deserialize-Arm64"]["baseline"] == "NewtonsoftDeserialize-Arm64"
    for serialize in ("Categories-Serialize-.NET-8.0", "Categories-Serialize-Arm64"):  # its ratios print '?'
        assert groups[serialize]["title"].startswith("TODO: choose the baseline, one of NewtonsoftSerialize")
    assert err.count("warning: no baseline in 'Categories: Serialize") == 3  # .NET 8.0, .NET 9.0, Arm64
    stj = [c for c in data["claims"] if c["published_variant"] == "StjDeserialize" and "benchmark" in c]
    assert {c.get("baseline") for c in stj if "across" not in c["scenario"]} == {
        "NewtonsoftDeserialize",
        "NewtonsoftDeserialize-Arm64",
    }  # never a Serialize row


def test_the_stand_ins_the_arm64_job_and_the_mono_job(tmp_path, capsys):
    text, err, data = _imported(tmp_path, capsys)
    hardware = {h["description"].rsplit("; ", 1)[1]: h for h in data["hardware"].values()}
    assert {name: h["lab_runtimes"] for name, h in hardware.items()} == {
        ".NET 8.0": ["8.0.0", "8.0.31"],
        ".NET 9.0": ["9.0.20"],
        "Arm64": ["8.0.0", "8.0.31"],
        "Mono": [],
    }
    assert {name: h["isa_level"] for name, h in hardware.items()} == {
        ".NET 8.0": "no-avx512",
        ".NET 9.0": "no-avx512",
        "Arm64": "native",
        "Mono": "no-avx512",
    }
    assert hardware[".NET 8.0"]["microarchitecture"] == "zen3"  # AMD Ryzen 7 5800H
    assert hardware["Arm64"]["cpu_vendor"].startswith("TODO: the vendor of the arm64 CPU")
    keys = {h["description"].rsplit("; ", 1)[1]: key for key, h in data["hardware"].items()}
    mono = [c for c in data["claims"] if c["hardware"] == keys["Mono"]]
    assert len(mono) == 4 and all(c["cannot_reproduce"].startswith("runtime not served: Mono 6.12.0") for c in mono)
    assert "warning: 4 claim(s) of H4 (Mono 6.12.0) say cannot reproduce" in err
    across = [c for c in data["claims"] if c["scenario"] == "Categories: StjDeserialize across runtimes"]
    assert [(c["at"]["runtime"], c["reference_at"]["runtime"]) for c in across] == [
        ("8.0.0", "8.0.0"),
        ("9.0.20", "8.0.0"),
    ]
    assert len(data["benchmarks"]) == 8 and len(data["claims"]) == 24  # 16 rows and 8 across runtimes
    assert "# every claim of this hardware says cannot reproduce: runtime not served" in text


def test_filled_where_it_asks_the_file_passes_every_check(tmp_path, capsys):
    text, _, _ = _imported(tmp_path, capsys)
    filled = re.sub(r'variant = "TODO: the dotnet variant of Newtonsoft\w*"', 'variant = "newtonsoft-default"', text)
    filled = re.sub(r'variant = "TODO: the dotnet variant of Stj\w*"', 'variant = "stj-default"', filled)
    filled = re.sub(r'dataset = "TODO[^"]*"', 'dataset = "simple-models-1"', filled)
    filled = re.sub(r'(operation|writeup) = "TODO[^"]*"', r'\1 = "serialize"', filled)
    filled = re.sub(r'^title = "TODO: what[^"]*"', 'title = "filled"', filled, flags=re.M)
    filled = re.sub(r'cpu_vendor = "TODO[^"]*"', 'cpu_vendor = "qualcomm"', filled)
    out = tmp_path / "experiments" / "950-categories.toml"
    out.write_text(filled)
    assert main(["check", "--experiments-dir", str(out.parent)]) == 2
    assert "2 field(s) still say TODO: groups[1] (Categories-Serialize-.NET-8.0).title" in capsys.readouterr().err
    chosen = re.sub(r'^title = "TODO: choose[^"]*give the title: ([^"]*)"', r'title = "\1"', filled, flags=re.M)
    out.write_text(chosen)
    assert main(["check", "--experiments-dir", str(out.parent)]) == 0, capsys.readouterr().err
    assert "ok  experiment 950  8 benchmarks, 24 claims" in capsys.readouterr().out
