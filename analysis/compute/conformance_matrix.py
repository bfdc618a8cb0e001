"""The conformance matrix: each lab parser's outcomes on JSONTestSuite (conformance.jsonl, written by `harness
conformance`), counted by what the file expects, like the tables of "Parsing JSON is a Minefield", with the files each
parser got wrong listed under it and a link to the same library's speed rows."""

from __future__ import annotations

import pathlib

import pandas as pd

from analysis.formatting.tables import markdown_table
from harness.model.folder.result_lines import parse_lines
from harness.model.folder.run_folder import CONFORMANCE_FILE
from harness.model.folder.run_records import ConformanceRecord

FAILURES = ("wrongly accepted", "wrongly rejected", "crashed", "hung")
SHOWN_FILES = 12


def load_conformance(run_dir: pathlib.Path) -> pd.DataFrame:
    """One row per lab, parser and suite file; empty when the run has no conformance results."""
    path = run_dir / CONFORMANCE_FILE
    if not path.is_file():
        return pd.DataFrame()
    parsed, _ = parse_lines(path.read_bytes(), str(path))  # a torn last line (a pass stopped mid-write) left out
    records = [ConformanceRecord.from_dict(data, f"{path}:{number}") for number, data in parsed]
    return pd.DataFrame([r.to_dict() for r in records])


def conformance_matrix(results: pd.DataFrame) -> pd.DataFrame:
    """Per lab and parser: counts by expectation and outcome, and the failures."""
    if results.empty:
        return pd.DataFrame()
    rows = []
    for (lab, parser), files in results.groupby(["lab", "parser"], sort=False):

        def count(expectation: str, outcome: str, files=files) -> int:
            return int(((files["expectation"] == expectation) & (files["outcome"] == outcome)).sum())

        first = files.iloc[0]
        rows.append(
            {
                "lab": lab,
                "runtime": first.get("runtime"),
                "parser": parser,
                "library": first.get("library"),
                "library_version": first.get("library_version"),
                "description": first.get("description"),
                "accept_files": int((files["expectation"] == "accept").sum()),
                "accept_passed": count("accept", "accepted"),
                "wrongly_rejected": count("accept", "rejected"),
                "reject_files": int((files["expectation"] == "reject").sum()),
                "reject_passed": count("reject", "rejected"),
                "wrongly_accepted": count("reject", "accepted"),
                "either_files": int((files["expectation"] == "either").sum()),
                "either_accepted": count("either", "accepted"),
                "either_rejected": count("either", "rejected"),
                "crashed": int((files["outcome"] == "crashed").sum()),
                "hung": int((files["outcome"] == "hung").sum()),
                "failures": int(files["verdict"].isin(FAILURES).sum()),
            }
        )
    return pd.DataFrame(rows)


def _speed_link(cells: pd.DataFrame, lab: str, library: str | None) -> str:
    """The same library's measured cells in this run, named, with where to find them."""
    if cells.empty or not library:
        return "—"
    mine = cells[(cells["lab"] == lab) & (cells["library"] == library)]
    if mine.empty:
        return "not measured in this run"
    variants = list(dict.fromkeys(mine["variant"]))
    shown = ", ".join(f"`{v}`" for v in variants[:4]) + (f" and {len(variants) - 4} more" if len(variants) > 4 else "")
    return f"{len(mine)} cells ({shown}): [results](tables/results.csv)"


def conformance_markdown(results: pd.DataFrame, cells: pd.DataFrame) -> str:
    """The report's "Conformance" section."""
    matrix = conformance_matrix(results)
    if matrix.empty:
        return ""
    lines = [
        "## Conformance (JSONTestSuite)",
        "",
        "Every parser each lab lists ran over the 318 files of JSONTestSuite's `test_parsing/` (datasets/conformance, "
        "commit 1ef36fa), read as raw bytes: 95 a parser must accept (`y_`), 188 it must reject (`n_`), 35 where "
        "either "
        "is allowed (`i_`). Each file's outcome is the lab's own: a process that died on a file, or answered nothing "
        "for "
        "10 s, counts as *crashed* or *hung* on that file and the rest of the suite went on in a new process. How each "
        "parser is called (which API, how bytes become text) is in its description below and in `conformance.jsonl`.",
        "",
        _matrix_table(matrix, cells),
    ]
    for r in matrix.itertuples():
        lines.append(f"- `{r.parser}` ({r.lab}): {r.description or ''}")
    lines.append("")
    lines += _wrong_files(results)
    return "\n".join(lines) + "\n"


def _matrix_table(matrix: pd.DataFrame, cells: pd.DataFrame) -> str:
    """The matrix as a Markdown table: one row per lab and parser, its counts and a link to its speed rows."""
    headers = [
        "lab (runtime)",
        "parser",
        "library",
        "must accept: passed",
        "wrongly rejected",
        "must reject: passed",
        "wrongly accepted",
        "either: accepted / rejected",
        "crashed",
        "hung",
        "speed rows",
    ]
    body = [
        [
            f"{r.lab} ({r.runtime})",
            f"`{r.parser}`",
            f"{r.library or ''} {r.library_version or ''}".strip(),
            f"{r.accept_passed}/{r.accept_files}",
            str(r.wrongly_rejected),
            f"{r.reject_passed}/{r.reject_files}",
            str(r.wrongly_accepted),
            f"{r.either_accepted} / {r.either_rejected}",
            str(r.crashed),
            str(r.hung),
            _speed_link(cells, r.lab, r.library),
        ]
        for r in matrix.itertuples()
    ]
    return markdown_table(headers, body)


def _wrong_files(results: pd.DataFrame) -> list[str]:
    """Each parser that got files wrong, with those files by outcome (the first SHOWN_FILES of each), and a blank
    line after each parser."""
    lines: list[str] = []
    for (lab, parser), files in results.groupby(["lab", "parser"], sort=False):
        wrong = files[files["verdict"].isin(FAILURES)]
        if wrong.empty:
            continue
        lines.append(f"**{parser}** ({lab}), {len(wrong)} wrong:")
        for outcome, hits in wrong.groupby("verdict", sort=False):
            names = ", ".join(f"`{name}`" for name in hits["file"].head(SHOWN_FILES))
            more = f" and {len(hits) - SHOWN_FILES} more" if len(hits) > SHOWN_FILES else ""
            lines.append(f"- {outcome} ({len(hits)}): {names}{more}")
        lines.append("")
    return lines
