"""`just import` groups rows as BenchmarkDotNet takes its ratios: a category ([BenchmarkCategory] grouped by category)
is a ratio group with its own baseline, never a parameter; the empty row between logical groups ends a group; a group
whose baseline the report does not mark is left for the user to choose (a TODO the checks refuse), never picked
silently; a mean printed in picoseconds is a time."""

from __future__ import annotations

import re

from harness.bdn.importer import import_reports
from harness.bdn.report_tables import read_report
from harness.cli import main
from tests.harness.bdn.test_bdn_import import DOTNET, ISA, _loads

HEADER = """```

BenchmarkDotNet v0.13.12, Ubuntu 22.04.4 LTS (Jammy Jellyfish)
AMD EPYC 7763, 1 CPU, 4 logical and 2 physical cores
.NET SDK 8.0.204
  [Host]     : .NET 8.0.4 (8.0.424.16909), X64 RyuJIT AVX2
  DefaultJob : .NET 8.0.4 (8.0.424.16909), X64 RyuJIT AVX2


```
"""

#: [BenchmarkCategory] on each method, GroupBenchmarksBy(ByCategory), [CategoriesColumn]: one baseline per category.
#: The Serialize category comes first, so a baseline read across categories would be NewtonsoftSerialize.
CATEGORIES = (
    HEADER
    + """| Method                | Categories  | Mean       | Error    | StdDev   | Ratio | Allocated |
|---------------------- |------------ |-----------:|---------:|---------:|------:|----------:|
| NewtonsoftSerialize   | Serialize   |   800.1 ns |  5.55 ns |  5.19 ns |  1.00 |    1536 B |
| StjSerialize          | Serialize   |   300.2 ns |  2.00 ns |  1.87 ns |  0.38 |     232 B |
|                       |             |            |          |          |       |           |
| NewtonsoftDeserialize | Deserialize | 1,234.5 ns | 10.21 ns |  9.55 ns |  1.00 |    2960 B |
| StjDeserialize        | Deserialize |   612.3 ns |  4.10 ns |  3.84 ns |  0.50 |     400 B |
"""
)


def _write(tmp_path, text: str, name: str = "JsonLab.Bench.Formats-report-github.md"):
    report = tmp_path / name
    report.write_text(text)
    return report


def _baselines(data: dict) -> dict[str, str]:
    """published variant -> the benchmark its claim's ratio is to."""
    return {c["published_variant"]: c.get("baseline") or c.get("derived_baseline") for c in data["claims"]}


def test_the_categories_column_is_a_category_with_its_own_baseline_never_a_parameter(tmp_path):
    (table,) = read_report(_write(tmp_path, CATEGORIES))
    assert table.param_columns == () and {r.category for r in table.rows} == {"Serialize", "Deserialize"}
    assert all("Categories" not in r.params for r in table.rows)
    data = _loads(import_reports([_write(tmp_path, CATEGORIES)], "950", DOTNET, ISA).text)
    assert {g["title"]: g["baseline"] for g in data["groups"]} == {
        "Formats: Serialize": "NewtonsoftSerialize",
        "Formats: Deserialize": "NewtonsoftDeserialize",
    }
    assert _baselines(data) == {
        "NewtonsoftSerialize": "NewtonsoftSerialize",
        "StjSerialize": "NewtonsoftSerialize",
        "NewtonsoftDeserialize": "NewtonsoftDeserialize",
        "StjDeserialize": "NewtonsoftDeserialize",  # never the Serialize category's baseline
    }
    stj = next(c for c in data["claims"] if c["published_variant"] == "StjDeserialize")
    assert (stj["scenario"], stj["ratio"]) == ("Formats: Deserialize", 0.5)
    dataset = next(b["dataset"] for b in data["benchmarks"] if b["id"] == "StjDeserialize")
    assert "Categories=" not in dataset and "category Deserialize" in dataset


def test_categories_without_their_column_are_told_apart_by_the_empty_row_between_logical_groups(tmp_path):
    """GroupBenchmarksBy(ByCategory) without [CategoriesColumn]: only BenchmarkDotNet's empty row parts the two
    categories, each with its own ratio 1.00 row."""
    text = CATEGORIES.replace("| Categories  ", "").replace("|------------ ", "")
    text = re.sub(r"\| (Serialize  |Deserialize|           ) \|", "|", text)
    data = _loads(import_reports([_write(tmp_path, text)], "950", DOTNET, ISA).text)
    assert _baselines(data)["StjDeserialize"] == "NewtonsoftDeserialize"
    assert _baselines(data)["StjSerialize"] == "NewtonsoftSerialize"
    assert len({c["scenario"] for c in data["claims"]}) == 2  # two scenarios, each with its own baseline row
    (table,) = read_report(_write(tmp_path, text))
    assert "Categories" not in table.columns and [r.block for r in table.rows] == [0, 0, 1, 1]


def test_a_baseline_yes_row_marks_its_group_s_baseline_whatever_ratio_it_printed(tmp_path):
    """[BaselineColumn]: the baseline row of a noisy baseline prints a ratio of 1.01 (a mean of ratios)."""
    text = CATEGORIES.replace("| Allocated |", "| Allocated | Baseline |").replace(
        "|----------:|", "|----------:|---------:|"
    )
    text = text.replace("|   800.1 ns |  5.55 ns |  5.19 ns |  1.00 |", "|   800.1 ns |  5.55 ns |  5.19 ns |  1.01 |")
    serialize = re.findall(r"^\| (?:Newtonsoft|Stj)Serialize .*\n", text, re.M)
    text = text.replace("".join(serialize), serialize[1] + serialize[0])  # the baseline printed second
    for line, mark in (("800.1 ns", "Yes"), ("300.2 ns", "No"), ("1,234.5 ns", "Yes"), ("612.3 ns", "No")):
        text = re.sub(rf"({re.escape(line)}.*\|)\n", rf"\1 {mark:>8} |\n", text)
    data = _loads(import_reports([_write(tmp_path, text)], "950", DOTNET, ISA).text)
    assert {g["title"]: g["baseline"] for g in data["groups"]}["Formats: Serialize"] == "NewtonsoftSerialize"
    baseline = next(c for c in data["claims"] if c["published_variant"] == "NewtonsoftSerialize")
    assert baseline["ratio"] == 1.0 and "printed 1.01" in baseline["note"]


NO_BASELINE = (
    HEADER
    + """| Method     | Mean     | Error    | StdDev   | Allocated |
|----------- |---------:|---------:|---------:|----------:|
| Stj        | 612.4 ns | 1.52 ns  | 1.42 ns  |     856 B |
| Newtonsoft | 655.1 ns | 2.11 ns  | 1.97 ns  |    2744 B |
"""
)


def test_a_table_without_a_baseline_leaves_the_choice_to_the_user_and_the_checks_refuse_it_until_made(tmp_path, capsys):
    folder = tmp_path / "experiments"
    folder.mkdir()
    out = folder / "950-formats.toml"
    assert main(["import", str(_write(tmp_path, NO_BASELINE)), "--id", "950", "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert "warning: no baseline in 'Formats'" in err and "choose one of Stj, Newtonsoft" in err
    text = out.read_text()
    (group,) = _loads(text)["groups"]
    assert group["title"].startswith("TODO: choose the baseline, one of Stj, Newtonsoft")
    assert "# The report marks no baseline for these rows" in text
    filled = re.sub(r'variant = "TODO[^"]*"', 'variant = "stj-default"', text)
    filled = re.sub(r'dataset = "TODO[^"]*"', 'dataset = "simple-models-1"', filled)
    filled = re.sub(r'(operation|writeup) = "TODO[^"]*"', r'\1 = "serialize"', filled)
    filled = re.sub(r'^title = "TODO: what[^"]*"', 'title = "filled"', filled, flags=re.M)
    out.write_text(filled)
    assert main(["check", "--experiments-dir", str(folder)]) == 2  # the group's title still says TODO
    assert "1 field(s) still say TODO: groups[0] (Formats).title" in capsys.readouterr().err
    chosen = re.sub(r'^title = "TODO: choose[^"]*"', 'title = "Formats"', filled, flags=re.M)
    out.write_text(chosen.replace('baseline = "Stj"', 'baseline = "Newtonsoft"'))  # the group's and the claims'
    assert main(["check", "--experiments-dir", str(folder)]) == 0, capsys.readouterr().err


PICOSECONDS = (
    HEADER
    + """| Method   | Mean      | Error     | StdDev    | Ratio |
|--------- |----------:|----------:|----------:|------:|
| IsDigit  | 512.3 ps  | 2.110 ps  | 1.970 ps  |  1.00 |
| Lookup   | 1.021 ns  | 0.004 ns  | 0.004 ns  |  1.99 |
"""
)


def test_a_mean_in_picoseconds_is_read_and_keeps_its_row_as_the_baseline(tmp_path):
    result = import_reports([_write(tmp_path, PICOSECONDS)], "950", DOTNET, ISA)
    assert result.unread == []
    data = _loads(result.text)
    assert data["groups"][0]["baseline"] == "IsDigit"
    digit = next(c for c in data["claims"] if c["published_variant"] == "IsDigit")
    assert (digit["mean_ns"], digit["published_mean"], digit["ratio"]) == (0.5123, "512.3 ps", 1.0)
