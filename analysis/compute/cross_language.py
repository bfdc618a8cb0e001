"""The cross-language comparison: the cells of groups (or benchmarks) that declare a `shared_operation` (an operation
every lab can perform, e.g. untyped-parse), set side by side per shared operation and dataset across labs and runtimes,
with time per
operation, throughput and allocation.

Throughput is the row's `payload_bytes` (the JSON text the operation reads, for a parse; writes, for a serialize; both
as UTF-8, reported by the lab's verification) over the time per operation, in MB/s (10^6 bytes per second); its
interval is the time's 99% interval inverted. Where a lab declares itself the speed-of-light reference (lab.toml
`speed_of_light`: the C++ lab), its fastest verified cell of each shared operation, dataset and ISA level is that
block's reference, and every cell's MB/s is also shown as a fraction of it: a share of throughput, read off two
separately measured means, not a paired ratio. Nothing is compared as a ratio across labs: a ratio pairs processes of
one lab build, and each lab's groups have their own baseline. A cell with no shared operation stays out of this
section, never set beside another operation; a benchmark whose operation differs from its group's says so itself
(fast-json-stringify, which needs a schema, is a typed serialize inside its group of untyped JSON.stringify).
"""

from __future__ import annotations

import pandas as pd

from analysis.compute.verdicts.chart_refs import ChartRef
from analysis.formatting.tables import format_ns, markdown_table
from harness.model.experiment import Experiment
from harness.model.folder.records import MEASURED, RowStatus

CROSS_LANGUAGE_CHARTS = "cross-language"
COLUMNS = [
    "shared_operation",
    "dataset",
    "isa_requested",
    "experiment",
    "group",
    "benchmark",
    "lab",
    "runtime",
    "runtime_requested",
    "runtime_version",
    "library",
    "library_version",
    "variant",
    "payload_form",
    "status",
    "replicates",
    "time_ns",
    "ci99_lower_ns",
    "ci99_upper_ns",
    "payload_bytes",
    "mb_per_s",
    "mb_per_s_lower",
    "mb_per_s_upper",
    "allocated_bytes_per_op",
    "peak_rss_bytes",
    "verification_message",
    "error",
    "speed_of_light_cell",
    "speed_of_light_mb_per_s",
    "fraction_of_speed_of_light",
]
BLOCK = ["shared_operation", "dataset", "isa_requested"]


def cross_language_table(
    experiments: list[Experiment], cells: pd.DataFrame, speed_of_light_labs: frozenset[str] = frozenset()
) -> pd.DataFrame:
    """One row per cell of a shared-operation group, fastest first within each (shared operation, dataset), with the
    block's speed of light (the fastest verified cell of a lab in `speed_of_light_labs`) where it has one."""
    shared = {
        (exp.id, b.id): b.shared_operation_in(exp.groups[b.group])
        for exp in experiments
        for b in exp.benchmarks.values()
        if b.shared_operation_in(exp.groups[b.group])
    }
    if cells.empty or not shared:
        return pd.DataFrame(columns=COLUMNS)
    keys = list(zip(cells["experiment"], cells["benchmark"]))
    mine = cells[[key in shared for key in keys]].copy()
    if mine.empty:
        return pd.DataFrame(columns=COLUMNS)
    mine["shared_operation"] = [shared[key] for key in zip(mine["experiment"], mine["benchmark"])]
    for column in COLUMNS:
        if column not in mine:
            mine[column] = None
    size = pd.to_numeric(mine["payload_bytes"], errors="coerce")
    mine["mb_per_s"] = size * 1e3 / mine["time_ns"]
    mine["mb_per_s_lower"] = size * 1e3 / mine["ci99_upper_ns"]
    # A time interval reaching 0 or below (two processes far apart) puts no upper bound on the throughput: unknown.
    mine["mb_per_s_upper"] = (size * 1e3 / mine["ci99_lower_ns"]).where(mine["ci99_lower_ns"] > 0)
    mine["isa_requested"] = mine["isa_requested"].fillna("native")
    mine = _with_speed_of_light(mine, speed_of_light_labs)
    mine = mine.sort_values(
        ["shared_operation", "dataset", "isa_requested", "time_ns"],
        key=_native_first,
        na_position="last",
        kind="stable",
    )
    return mine[COLUMNS].reset_index(drop=True)


def _with_speed_of_light(table: pd.DataFrame, labs: frozenset[str]) -> pd.DataFrame:
    """Adds each block's reference (benchmark and MB/s) and every row's fraction of it; empty where the block has no
    verified cell of a speed-of-light lab."""
    table["speed_of_light_cell"] = None
    table["speed_of_light_mb_per_s"] = float("nan")
    reference = table[table["lab"].isin(labs) & table["status"].eq(RowStatus.OK) & table["mb_per_s"].notna()]
    for key, rows in reference.groupby(BLOCK, sort=False):
        best = rows.loc[rows["mb_per_s"].idxmax()]
        block = (table[BLOCK] == pd.Series(dict(zip(BLOCK, key)))).all(axis=1)
        table.loc[
            block, "speed_of_light_cell"
        ] = f"{best['library']} {best['variant']} ({best['lab']} {best['runtime_requested']})"
        table.loc[block, "speed_of_light_mb_per_s"] = best["mb_per_s"]
    table["fraction_of_speed_of_light"] = table["mb_per_s"] / table["speed_of_light_mb_per_s"]
    return table


def _native_first(column: pd.Series) -> pd.Series:
    """Sort key: the native ISA level before the others (other columns sort as they are)."""
    return column.map(lambda level: "" if level == "native" else level) if column.name == "isa_requested" else column


def _fmt(value: float, digits: int = 0) -> str:
    return "—" if value is None or pd.isna(value) else f"{value:,.{digits}f}"


def _percent(value: float) -> str:
    return "—" if value is None or pd.isna(value) else f"{value:.0%}"


def _mib(value: float | None) -> str:
    return "—" if value is None or pd.isna(value) else f"{value / (1 << 20):,.1f} MiB"


def _who(row: pd.Series) -> str:
    runtime = (
        row["runtime_version"]
        if isinstance(row["runtime_version"], str) and row["runtime_version"]
        else row["runtime_requested"]
    )
    return f"{row['lab']} ({runtime})"


def cross_language_markdown(table: pd.DataFrame, charts: list[ChartRef] | None = None) -> str:
    """The report's "Cross-language" section: per shared operation and dataset, every lab's cells side by side."""
    if table.empty:
        return ""
    lines = [
        "## Cross-language",
        "",
        "Groups (or benchmarks) declaring a `shared_operation` in their experiment do the same thing in every lab: an "
        "untyped "
        "parse of the same file, writing the document such a parse gave back to text, reading the file into its typed "
        "model, "
        "or writing such a model (a .NET class or C++ struct; in Node a value a fast-json-stringify schema describes). "
        "Untyped results, and C++ typed models written back, are verified against the same canonical digest of the "
        "dataset, .NET typed ones field by field against the file, before timing. They are set side by side here, "
        "fastest first. Times are means over fresh processes "
        "with their 99% interval (Student t over the processes); MB/s is the JSON text read (parse) or written "
        "(serialize), "
        "as UTF-8, per second; allocation is per operation where the lab can measure it (BenchmarkDotNet's "
        "MemoryDiagnoser; "
        "V8's total allocated bytes on Node 26 and later). Peak RSS, where the profile reads it (`peak_rss_runs`), is "
        "the median over fresh processes that each start the lab, read the file and perform the operation once (the "
        "lab reads its own VmHWM): the runtime's footprint and one result's memory together. No ratio is taken across "
        "labs. The table is `tables/cross-language.csv`.",
        "",
    ]
    for (operation, dataset, level), rows in table.groupby(BLOCK, sort=False):
        lines += _block_markdown(operation, dataset, level, rows)
    lines += [chart.markdown() for chart in charts or []]
    return "\n".join(lines) + "\n"


def _block_markdown(operation: str, dataset: str, level: str, rows: pd.DataFrame) -> list[str]:
    """One block's heading, table and footnote: every lab's cells of one shared operation, dataset and ISA level."""
    reference = rows["speed_of_light_mb_per_s"].dropna()
    headers = ["lab (runtime)", "library", "variant", "form", "time/op [99% CI]", "MB/s [99% CI]"]
    headers += ["of speed of light"] if not reference.empty else []
    headers += ["allocated/op"]
    rss = rows["peak_rss_bytes"].notna().any()
    headers += ["peak RSS"] if rss else []
    headers += ["n"]
    body = _block_rows(rows, not reference.empty, rss)
    size = rows["payload_bytes"].dropna()
    note = (
        f" ({int(size.iloc[0]):,} bytes of input)"
        if operation.endswith(("parse", "deserialize")) and not size.empty
        else ""
    )
    at = "" if level == "native" else f", ISA level {level}"
    return [
        f"### {operation}: {dataset}{note}{at}",
        "",
        markdown_table(headers, body),
        "★ the fastest verified cell of its lab."
        + (
            f" Speed of light: {rows['speed_of_light_cell'].dropna().iloc[0]}, {_fmt(reference.iloc[0])} MB/s; the"
            " fraction is of its mean MB/s (two separate means, not a paired ratio)."
            if not reference.empty
            else ""
        ),
        "",
    ]


def _block_rows(rows: pd.DataFrame, fraction: bool, rss: bool) -> list[list[str]]:
    """The block's table rows: a cell not measured with its status and error, a measured one with its time, MB/s,
    `fraction` of the speed of light, allocation, peak RSS (when `rss`) and processes; ★ marks each lab's fastest."""
    body: list[list[str]] = []
    best = {
        lab: rows[(rows["lab"] == lab) & rows["status"].eq(RowStatus.OK)]["time_ns"].min()
        for lab in rows["lab"].unique()
    }
    for _, r in rows.iterrows():
        if r["status"] not in MEASURED:
            body.append(
                [
                    _who(r),
                    r["library"] or "",
                    r["variant"],
                    r["payload_form"] or "",
                    f"{r['status']}: {r['error'] or ''}",
                    "",
                    *([""] if fraction else []),
                    "",
                    *([""] if rss else []),
                    "",
                ]
            )
            continue
        mark = (
            " ⚠ unverified"
            if r["status"] == RowStatus.UNVERIFIED
            else (" ★" if r["time_ns"] == best.get(r["lab"]) else "")
        )
        alloc = r["allocated_bytes_per_op"]
        body.append(
            [
                _who(r),
                f"{r['library'] or ''} {r['library_version'] or ''}".strip(),
                f"{r['variant']}{mark}",
                r["payload_form"] or "",
                f"{format_ns(r['time_ns'])} [{format_ns(r['ci99_lower_ns'])}, {format_ns(r['ci99_upper_ns'])}]",
                f"{_fmt(r['mb_per_s'])} [{_fmt(r['mb_per_s_lower'])}, {_fmt(r['mb_per_s_upper'])}]",
                *([_percent(r["fraction_of_speed_of_light"])] if fraction else []),
                "—" if alloc is None or pd.isna(alloc) else f"{alloc / 1024:,.0f} KiB",
                *([_mib(r["peak_rss_bytes"])] if rss else []),
                _fmt(r["replicates"]),
            ]
        )
    return body
