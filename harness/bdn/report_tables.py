"""Reading BenchmarkDotNet reports as they are published: the github-markdown exporter's `*-report-github.md`.

A report is an environment header (BenchmarkDotNet version and OS, CPU, SDK, one line per job with its runtime, the job
settings), usually in a ``` block, then a markdown table: Method, any job and parameter columns, Mean, Error, StdDev,
Ratio, Allocated and more. Versions 0.11 to 0.15 differ in the header (`BenchmarkDotNet=v0.11.5, OS=...` before 0.13.6,
`BenchmarkDotNet v0.15.8, Linux ...` after), in column names (Gen 0 / Gen0, Alloc Ratio) and in ISA details on the job
lines (`AVX2`, `x86-64-v3`); copies pasted into blog posts and pull requests may lose the fence or the outer pipes. Both
are read. Columns before the statistics are the method, job columns (Job, Runtime, Toolchain, EnvironmentVariables, …:
where a row ran), the category ([CategoriesColumn]) and the benchmark's parameters; the empty row BenchmarkDotNet prints
between two logical groups ends a ratio group. Units: ps, ns, μs/µs/us, ms, s (or a unit in the header, `Mean [us]`); B,
KB, MB, GB (1 KB = 1024 B, as BenchmarkDotNet counts). A row that cannot be read is kept with the reason, never dropped
silently.
"""

from __future__ import annotations

import dataclasses
import pathlib
import re
from dataclasses import dataclass, field

from harness.bdn.columns import BASELINE_COLUMN, CATEGORY_COLUMN, JOB_COLUMNS, RUNTIME_COLUMNS, STAT_COLUMNS
from harness.bdn.report_header import Environment, _header_blocks, _is_table_line, parse_environment
from harness.bdn.units import decimal_comma, parse_ratio, parse_size_bytes, parse_time_ns
from harness.config.data_files import INVISIBLE, read_text
from harness.model.errors import ConfigError


@dataclass(frozen=True)
class Row:
    """One benchmark row: its method, parameter and job columns, and the figures the lab compares."""

    line: int
    method: str
    params: dict[str, str]  # the benchmark's parameter columns, as printed
    job: str | None  # the Job column, else the Runtime column; None without either
    mean_ns: float | None
    mean_text: str | None
    ratio: float | None
    allocated_bytes: int | None
    allocated_text: str | None
    allocated_tolerance_bytes: int  # the printed figure's rounding (0 when printed in bytes)
    job_columns: dict[str, str] = field(default_factory=dict)  # Runtime, Toolchain, EnvironmentVariables, … as printed
    category: str | None = None  # the Categories column
    baseline_mark: bool | None = None  # the Baseline column: Yes / No; None without it
    block: int = 0  # how many of BenchmarkDotNet's empty rows between logical groups come before it
    # The row's own statistics beside its mean, in ns, by claim field (published_error_ns, published_stddev_ns,
    # published_min_ns, published_median_ns): those printed and read
    statistics: dict[str, float] = field(default_factory=dict)

    @property
    def job_key(self) -> tuple[str | None, tuple[tuple[str, str], ...]]:
        """What tells this row's job from another's: the Job column and every job column."""
        return self.job, tuple(self.job_columns.items())

    @property
    def job_label(self) -> str:
        """The job as a scenario names it: its Job (or Runtime) column, else its job columns ('.NET 8.0', 'Arm64',
        'EnvironmentVariables=DOTNET_EnableAVX512F=0')."""
        return self.job or ", ".join(f"{k}={v}" for k, v in self.job_columns.items())


@dataclass(frozen=True)
class Unread:
    """A row of a report that could not be read, and why."""

    source: str
    line: int
    text: str
    reason: str


@dataclass(frozen=True)
class Table:
    """One report table with its environment."""

    source: pathlib.Path
    name: str  # the report's class name, from the file name; "#2" appended for a second table in one file
    environment: Environment
    columns: tuple[str, ...]
    param_columns: tuple[str, ...]
    rows: tuple[Row, ...]
    unread: tuple[Unread, ...]
    shown_as: str = ""  # how the experiment file names the report (the kept copy); "" for its folder and file name

    @property
    def where(self) -> str:
        """The report as the experiment file's comments name it."""
        return self.shown_as or "/".join(self.source.parts[-2:])

    @property
    def has_ratio(self) -> bool:
        """True when the table printed ratios (a Ratio or Scaled column)."""
        return any(c in self.columns for c in ("Ratio", "Scaled"))


def read_report(path: pathlib.Path) -> list[Table]:
    """Every table of one report file, each with the environment header printed before it (or the file's only one)."""
    text = read_text(path, "give the *-report-github.md file BenchmarkDotNet wrote, as it wrote it").removeprefix(
        "\ufeff"
    )
    bad = INVISIBLE.search(text)
    if bad is not None:
        line = text[: bad.start()].count("\n") + 1
        raise ConfigError(
            f"{path} holds the invisible character U+{ord(bad.group(0)):04X} on line {line}",
            "BenchmarkDotNet writes none: remove it (a control or bidirectional-override character makes a name read "
            "differently from what it holds)",
        )
    lines = text.splitlines()
    tables: list[Table] = []
    headers = [(i, parse_environment(block)) for i, block in _header_blocks(lines)]
    index = 0
    while index < len(lines):
        if _is_header_row(lines, index):
            before = [env for start, env in headers if start < index]
            environment = before[-1] if before else (headers[0][1] if headers else Environment())
            table, index = _parse_table(path, lines, index, environment, len(tables) + 1)
            tables.append(table)
        else:
            index += 1
    return tables


def report_name(path: pathlib.Path) -> str:
    """'Benchmarks.JsonBenchmarks-report-github.md' -> 'JsonBenchmarks' (the benchmark class, as BenchmarkDotNet names
    it)."""
    stem = re.sub(r"(-report(-github)?)?(\.md)?$", "", path.name, flags=re.I)
    return stem.rsplit(".", 1)[-1] or stem


# -- the environment header -------------------------------------------------------------------------------------------

# -- the table
# ----------------------------------------------------------------------------------------------------------


def _cells(line: str) -> list[str]:
    """A markdown row's cells, outer pipes optional, bold markup removed."""
    text = line.strip()
    if text.startswith("|"):
        text = text[1:]
    if text.endswith("|"):
        text = text[:-1]
    return [cell.strip().replace("**", "").strip() for cell in text.split("|")]


def _is_separator(line: str) -> bool:
    cells = _cells(line)
    return bool(cells) and all(re.fullmatch(r":?-{2,}:?", c) for c in cells if c) and any(cells)


def _column_name(cell: str) -> tuple[str, str | None]:
    """'Mean [us]' -> ('Mean', 'us'); 'Mean' -> ('Mean', None)."""
    m = re.fullmatch(r"(.+?)\s*\[(.+)\]", cell)
    return (m.group(1).strip(), m.group(2).strip()) if m else (cell, None)


def _is_header_row(lines: list[str], index: int) -> bool:
    if not _is_table_line(lines[index]):
        return False
    names = [_column_name(c)[0] for c in _cells(lines[index])]
    following = next((line for line in lines[index + 1 :] if line.strip()), "")
    return "Method" in names and any(n in names for n in ("Mean", "Allocated")) and _is_separator(following)


def _parse_table(
    path: pathlib.Path, lines: list[str], start: int, environment: Environment, number: int
) -> tuple[Table, int]:
    header = [_column_name(c) for c in _cells(lines[start])]
    columns = tuple(name for name, _ in header)
    units = {name: unit for name, unit in header if unit}
    first_stat = next((i for i, name in enumerate(columns) if name in STAT_COLUMNS), len(columns))
    kinds = JOB_COLUMNS | {"Method", CATEGORY_COLUMN, BASELINE_COLUMN}
    params = tuple(c for i, c in enumerate(columns) if i < first_stat and c not in kinds)
    index = start + 1
    while not lines[index].strip():
        index += 1
    index += 1  # the separator
    rows: list[Row] = []
    unread: list[Unread] = []
    block = 0
    while index < len(lines) and _is_table_line(lines[index]) and not _is_header_row(lines, index):
        text = lines[index]
        cells = _cells(text)
        index += 1
        if _is_separator(text) or not any(cells):
            block += 1  # BenchmarkDotNet's empty row between two logical groups (each with its own baseline)
            continue
        where = Unread(path.name, index, text.strip(), "")
        if len(cells) != len(columns):
            unread.append(_why(where, f"{len(cells)} cells where the header has {len(columns)} columns"))
            continue
        values = dict(zip(columns, cells))
        row, reason = _row(values, units, params, index)
        if row is None:
            unread.append(_why(where, reason))
        else:
            rows.append(_marked(row, values, block))
    name = report_name(path) + ("" if number == 1 else f" #{number}")
    return Table(path, name, environment, columns, params, tuple(rows), tuple(unread)), index


def _marked(row: Row, values: dict[str, str], block: int) -> Row:
    """The row with its job columns, category, baseline mark and logical group."""
    mark = values.get(BASELINE_COLUMN, "").lower()
    return dataclasses.replace(
        row,
        job_columns={c: v for c, v in values.items() if c in JOB_COLUMNS and c != "Job" and v},
        category=values.get(CATEGORY_COLUMN) or None,
        baseline_mark={"yes": True, "no": False}.get(mark),
        block=block,
    )


def _why(where: Unread, reason: str) -> Unread:
    return Unread(where.source, where.line, where.text, reason)


def _row(values: dict[str, str], units: dict[str, str], params: tuple[str, ...], line: int) -> tuple[Row | None, str]:
    method = values["Method"]
    if not method:
        return None, "no method name"
    mean_text = values.get("Mean")
    mean_ns = None
    if mean_text is not None:
        mean_ns = parse_time_ns(mean_text, units.get("Mean"))
        if mean_ns is None and decimal_comma(mean_text):
            return None, (
                f"Mean '{mean_text}' has a decimal comma (a report printed in another culture): not read rather than "
                "misread; write the numbers with a decimal point"
            )
        if mean_ns is None:
            return None, f"Mean '{mean_text}' is not a time (NA: the benchmark failed or did not run in the report)"
        if mean_ns <= 0:
            return None, f"Mean '{mean_text}' is not positive"
    allocated_text = values.get("Allocated", values.get("Allocated Memory/Op"))
    allocated = tolerance = None
    if allocated_text is not None:
        parsed = parse_size_bytes(allocated_text, units.get("Allocated"))
        if parsed is None and allocated_text not in ("NA", "?", ""):
            comma = " (a decimal comma: write it with a decimal point)" if decimal_comma(allocated_text) else ""
            return None, f"Allocated '{allocated_text}' is not a size{comma}"
        allocated, tolerance = parsed if parsed is not None else (None, None)
    if mean_ns is None and allocated is None:
        return None, "neither a Mean nor an Allocated figure"
    ratio_text = values.get("Ratio", values.get("Scaled"))
    ratio = parse_ratio(ratio_text) if ratio_text is not None else None
    if ratio_text not in (None, "", "NA", "?", "-") and ratio is None:
        comma = " (a decimal comma: write it with a decimal point)" if decimal_comma(ratio_text or "") else ""
        return None, f"Ratio '{ratio_text}' is not a number{comma}"
    job = next((values[c] for c in RUNTIME_COLUMNS if values.get(c)), None)
    return (
        Row(
            line,
            method,
            {p: values[p] for p in params},
            job,
            mean_ns,
            mean_text if mean_ns is not None else None,
            ratio,
            allocated,
            allocated_text if allocated is not None else None,
            tolerance or 0,
            statistics=_statistics(values, units) if mean_ns is not None else {},
        ),
        "",
    )


#: The statistics columns read beside the mean, by the claim field each fills.
STATISTICS = {"Error": "published_error_ns", "StdDev": "published_stddev_ns", "Min": "published_min_ns"}
STATISTICS |= {"Median": "published_median_ns"}


def _statistics(values: dict[str, str], units: dict[str, str]) -> dict[str, float]:
    """The row's Error, StdDev, Min and Median in ns, those printed as times ('NA' or a blank leaves one out)."""
    found = {}
    for column, claim_field in STATISTICS.items():
        text = values.get(column)
        parsed = parse_time_ns(text, units.get(column)) if text else None
        if parsed is not None and parsed >= 0:
            found[claim_field] = float(parsed)
    return found
