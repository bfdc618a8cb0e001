"""Tables: formatters that turn DataFrames into markdown text or CSV text (no disk access here)."""

from __future__ import annotations

import math

import pandas as pd

from analysis.formatting.names import SEPARATOR, library_name, settings_line
from harness.model.experiment import Experiment
from harness.model.folder.records import MEASURED, UNAVAILABLE, RowStatus, VerificationStatus
from harness.model.judging import INTERVAL_METRICS
from harness.model.stats.stats import format_rel_ci


def markdown_table(headers: list[str], rows: list[list[str]]) -> str:
    """A GitHub-flavoured markdown table; pipes in cells are escaped."""

    def clean(text: str) -> str:
        return str(text).replace("|", "\\|").replace("\n", " ")

    lines = ["| " + " | ".join(clean(h) for h in headers) + " |", "|" + "|".join("---" for _ in headers) + "|"]
    lines += ["| " + " | ".join(clean(c) for c in row) + " |" for row in rows]
    return "\n".join(lines) + "\n"


def format_ns(ns: float | None) -> str:
    """1234.5 → '1,234.5 ns'; 1.5e6 → '1.500 ms'."""
    if ns is None or (isinstance(ns, float) and math.isnan(ns)):
        return "—"
    if ns >= 1e6:
        return f"{ns / 1e6:,.3f} ms"
    if ns >= 1e4:
        return f"{ns / 1e3:,.2f} µs"
    return f"{ns:,.1f} ns"


def _missing(value) -> bool:
    return value is None or (isinstance(value, float) and math.isnan(value))


def format_ratio(ratio: float | None, rel_half: float | None = None) -> str:
    """0.512 → '0.51×', with ' ±1.8%' (relative 99% CI half-width) when an interval is known."""
    if _missing(ratio):
        return "—"
    return f"{ratio:.2f}×" + ("" if rel_half is None or _missing(rel_half) else f" {format_rel_ci(rel_half)}")


def format_interval(ratio: float | None, lower: float | None, upper: float | None) -> str:
    """'0.51× [0.49, 0.53]'; '0.51× (no interval: one replicate)' when the bounds are unknown."""
    if _missing(ratio):
        return "—"
    if _missing(lower) or _missing(upper):
        return f"{ratio:.2f}× (no interval)"
    return f"{ratio:.2f}× [{lower:.3f}, {upper:.3f}]"


def failure_reason(error: object, width: int | None = None) -> str:
    """The first line of a failed cell's error, without the hint and log path the harness appends in parentheses;
    cut to `width` characters when given."""
    text = str(error or "no error recorded").splitlines()[0].split(" (")[0].strip()
    return text if width is None or len(text) <= width else text[: width - 1].rstrip() + "…"


def status_text(row: pd.Series, width: int | None = None) -> str:
    """What stands in for a number when a cell has none: 'failed: <reason>' or 'same as native'."""
    if row["status"] == RowStatus.SKIPPED:
        error = str(row.get("error") or "")
        return failure_reason(error, width) if error.startswith(UNAVAILABLE) else "same as native"
    return f"failed: {failure_reason(row.get('error'), width)}"


def _cell_text(row: pd.Series) -> str:
    if row["status"] not in MEASURED:
        return status_text(row)
    rel = f" {format_rel_ci(row['rel_ci99'])}" if not pd.isna(row["rel_ci99"]) else ""
    void = " VOID" if row["comparison_void"] else ""
    ratio = "1 (baseline)" if row["benchmark"] == row["baseline"] else format_ratio(row["ratio"], row["ratio_rel_ci99"])
    disturbed = row.get("disturbed_max")
    flag = f" ⚡ disturbed ({100 * disturbed:.0f}%)" if disturbed is not None and not pd.isna(disturbed) else ""
    return f"{format_ns(row['time_ns'])}{rel} ({ratio}{void}; n={int(row['replicates'])}){flag}"


def _variant_text(row: pd.Series, variant: str) -> str:
    """'System.Text.Json · case-insensitive (`stj-case-insensitive`)': what a reader knows it by, then the id."""
    settings = settings_line(row)
    return f"{library_name(row)}{SEPARATOR + settings if settings else ''} (`{variant}`)"


def experiment_markdown(experiment: Experiment, cells: pd.DataFrame, levels: list[str]) -> str:
    """One table per group: benchmarks × ISA levels, 'mean ±rel.CI (ratio)'; unverified rows flagged."""
    parts = []
    exp_cells = cells[cells["experiment"] == experiment.id]
    for group in experiment.groups.values():
        headers = ["Benchmark", "Library · settings (variant)", "Payload", "Verified", "Allocated/op", *levels]
        rows = []
        for bench in (b for b in experiment.benchmarks.values() if b.group == group.id):
            mine = exp_cells[exp_cells["benchmark"] == bench.id]
            if mine.empty:
                continue
            by_level = {r["setting"]: r for _, r in mine.iterrows()}
            first = mine.sort_values("setting_rank").iloc[0]
            verified = {"passed": "yes", "failed": "**NO** — " + str(first["verification_message"])}.get(
                first["verification_status"], "—"
            )
            allocated = "—" if pd.isna(first["allocated_bytes_per_op"]) else f"{first['allocated_bytes_per_op']:,.0f} B"
            name = (
                bench.id
                + (" (baseline)" if bench.id == group.baseline else "")
                + (" ⚠" if first["verification_status"] == VerificationStatus.FAILED else "")
            )
            rows.append(
                [
                    name,
                    _variant_text(first, bench.variant),
                    f"{bench.dataset} ({first['payload_form'] or '—'})",
                    verified,
                    allocated,
                    *[_cell_text(by_level[level]) if level in by_level else "—" for level in levels],
                ]
            )
        if not rows:
            continue
        settings = (
            "Run settings: " + ", ".join(f"`{name} = {value}`" for name, value in group.run_settings) + " (every "
            "process of this group ran with them; one that read back otherwise failed its cell). "
            if group.run_settings
            else ""
        )
        parts.append(
            f"#### {group.title}\n\n{settings}Baseline: `{group.baseline}`. Each cell: time per operation "
            "(mean over its n processes of each one's median iteration) ±99% CI half-width "
            "processes (ratio to the baseline at the same ISA level ±99% CI half-width over paired processes).\n\n"
            + markdown_table(headers, rows)
        )
    return "\n".join(parts)


def reproduction_markdown(verdicts: pd.DataFrame) -> str:
    """The primary verdict of every claim (at the ISA level matching the published CPU); allocation rows carry their
    byte verdict beside the ratio verdict."""
    primary = verdicts[verdicts["primary"]]
    headers = [
        "Scenario",
        "Published variant",
        "Metric",
        "Published ratio",
        "Measured ratio [99% CI]",
        "ISA level (· runtime)",
        "Verdict",
        "Published → measured (allocated/op, memory increase)",
        "Published on",
    ]
    rows = [
        [
            r["scenario"],
            r["published_variant"],
            r["metric"],
            ("—" if _missing(r["published_ratio"]) else f"{r['published_ratio']:.2f}×") + f" ({r['ratio_source']})",
            format_interval(r["measured_ratio"], r["measured_ratio_lower"], r["measured_ratio_upper"])
            if r["metric"] in INTERVAL_METRICS
            else format_ratio(r["measured_ratio"]),
            r["isa_level"] + ("" if r.get("runtime", "—") in ("—", "default") else f" · {r['runtime']}"),
            f"**{r['verdict']}**" + (f" ({r['note']})" if r["note"] else ""),
            bytes_text(r),
            r["published_runtime"],
        ]
        for _, r in primary.iterrows()
    ]
    evidence = primary.get("published_stability", pd.Series(dtype=str)).fillna("")
    if evidence.astype(bool).any():  # the published table's own Error, StdDev, Min and Median, where it printed them
        headers.append("Published table's own evidence")
        rows = [[*row, text or "—"] for row, text in zip(rows, evidence)]
    explained = primary.get("explained_by", pd.Series(dtype=str)).fillna("")
    if explained.astype(bool).any():  # what each switched factor did, and the setup factors left
        headers.append("Explained by")
        rows = [[*row, text or "—"] for row, text in zip(rows, explained)]
    return markdown_table(headers, rows)


def bytes_text(verdict: pd.Series) -> str:
    """'224 B → 232 B: **differs**' (± the tolerance when there is one) for an allocation verdict; '129.9 MiB → 131.2
    MiB' for a memory increase (judged by its ratio, in the Verdict column); '—' for the others."""
    if verdict["metric"] == "memory":
        measured = verdict.get("measured_value")
        shown = "—" if _missing(measured) else f"{measured / 1048576:,.1f} MiB"
        return f"{verdict['published_value']:,.1f} MiB → {shown}"
    judged = verdict.get("bytes_verdict")
    if verdict["metric"] != "allocated" or judged is None or _missing(judged):
        return "—"
    tolerance = verdict.get("allocated_tolerance_bytes")
    within = "" if _missing(tolerance) or not tolerance else f" (±{int(tolerance):,} B)"
    measured = "—" if _missing(verdict.get("measured_value")) else f"{verdict['measured_value']:,.0f} B"
    return f"{verdict['published_value']:,.0f} B{within} → {measured}: **{judged}**"


def to_csv(df: pd.DataFrame) -> str:
    """CSV text of a DataFrame (dict columns are written as JSON-ish text by pandas)."""
    return df.to_csv(index=False)
