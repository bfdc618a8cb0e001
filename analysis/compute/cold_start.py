"""Cold starts (experiments with measure = "cold"): one row per cell, whole-process times from hyperfine.

Each cell's row already holds every timed run as a process (n runs, Student-t 99% interval over them). The table splits
the whole process into what comes before the call (runtime start, dataset read, binding: the same process run with
--prepare-only) and the first call itself (the difference of the two medians), with the peak RSS the kernel reported.
"""

from __future__ import annotations

import pandas as pd

from analysis.compute.verdicts.chart_refs import ChartRef
from harness.model.folder.records import COLD, MEASURED, RowStatus

#: Columns of tables/cold-start.csv, in order.
COLUMNS = [
    "experiment",
    "group",
    "benchmark",
    "lab",
    "variant",
    "operation",
    "library",
    "library_version",
    "dataset",
    "runtime",
    "isa_level",
    "status",
    "runs",
    "process_ms",
    "process_ci99_lower_ms",
    "process_ci99_upper_ms",
    "before_call_ms",
    "first_call_ms",
    "peak_rss_mib",
    "error",
]


def split_measures(rows: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(steady-state rows, cold-start rows); rows written before cold starts existed are steady."""
    if rows.empty or "measure" not in rows:
        return rows, rows.iloc[0:0]
    cold = rows["measure"] == COLD
    return rows[~cold].reset_index(drop=True), rows[cold].reset_index(drop=True)


def cold_table(rows: pd.DataFrame) -> pd.DataFrame:
    """One line per cold cell (its last row), times in milliseconds."""
    if rows.empty:
        return pd.DataFrame(columns=COLUMNS)
    last = rows.drop_duplicates("cell_id", keep="last")

    def ms(column: str) -> pd.Series:
        return last[column] / 1e6 if column in last else pd.Series([None] * len(last), index=last.index)

    table = pd.DataFrame(
        {
            "experiment": last["experiment"],
            "group": last["group"],
            "benchmark": last["benchmark"],
            "lab": last.get("lab"),
            "variant": last.get("variant"),
            "operation": last.get("operation"),
            "library": last.get("library"),
            "library_version": last.get("library_version"),
            "dataset": last.get("dataset"),
            "runtime": last["runtime_requested"],
            "isa_level": last["isa_requested"],
            "status": last["status"],
            "runs": last.get("n"),
            "process_ms": ms("median_ns"),
            "process_ci99_lower_ms": ms("ci99_lower_ns"),
            "process_ci99_upper_ms": ms("ci99_upper_ns"),
            "before_call_ms": ms("prepare_median_ns"),
            "peak_rss_mib": last["peak_rss_bytes"] / (1 << 20) if "peak_rss_bytes" in last else None,
            "error": last.get("error"),
        }
    )
    table["first_call_ms"] = table["process_ms"] - table["before_call_ms"]
    return table[COLUMNS].reset_index(drop=True)


def _number(value: object, digits: int = 1) -> str:
    return "—" if value is None or pd.isna(value) else f"{value:,.{digits}f}"


def cold_start_markdown(table: pd.DataFrame, charts: list[ChartRef] | None = None) -> str:
    """The report's "Cold start" section: per group, each benchmark's whole process, before the call, the first call."""
    if table.empty:
        return ""
    lines = [
        "## Cold start",
        "",
        "Whole processes timed by hyperfine (each run a fresh process: runtime start, dataset read, binding, one call, "
        "exit). "
        "*Before the call* is the same process with `--prepare-only`; *first call* is the difference of the two "
        "medians, the "
        "price of the first serialize or deserialize (JIT compilation, metadata, the library's own start-up). Process "
        "times are "
        "medians with the 99% interval of the mean over the runs; peak RSS is the median over extra runs of the "
        "process's own "
        "VmHWM (`once --report-rss`). Raw hyperfine JSON per cell is under `raw/`; the table is "
        "`tables/cold-start.csv`.",
        "",
    ]
    for (experiment, group), rows in table.groupby(["experiment", "group"], sort=False):
        lines += [
            f"### {experiment}: {group}",
            "",
            "| benchmark | library | runtime | process ms [99% CI] | before the call ms | first call ms | peak RSS MiB "
            "| runs |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for _, r in rows.iterrows():
            if r["status"] not in MEASURED:
                lines.append(
                    f"| {r['benchmark']} | {r['library'] or ''} | {r['runtime']} | {r['status']}: {r['error']} | | | | "
                    "|"
                )
                continue
            flag = " ⚠ unverified" if r["status"] == RowStatus.UNVERIFIED else ""
            lines.append(
                f"| {r['benchmark']}{flag} | {r['library'] or ''} | {r['runtime']} | {_number(r['process_ms'])} "
                f"[{_number(r['process_ci99_lower_ms'])}, {_number(r['process_ci99_upper_ms'])}] | "
                f"{_number(r['before_call_ms'])} "
                f"| {_number(r['first_call_ms'])} | {_number(r['peak_rss_mib'])} | "
                f"{int(r['runs']) if pd.notna(r['runs']) else '—'} |"
            )
        lines.append("")
    lines += [chart.markdown() for chart in charts or []]
    return "\n".join(lines) + "\n"
