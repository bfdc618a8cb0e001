"""How noisy the machine was during a run, in numbers: calibration drift, disturbed processes, process spread.

Calibration (calibration.jsonl) times the same fixed workload before each ISA level and at the end:
its change is the machine drifting. Each replicate row says how much of its CPU's time went to other
work or to other guests (cpu_other_ms, steal_ms); a process above
harness.model.stats.interference.INTERFERENCE_THRESHOLD is flagged as disturbed. The spread between processes of one
cell (between_process_cv) is the noise the intervals have to absorb.
"""

from __future__ import annotations

import pandas as pd

from analysis.compute.load import SET_ASIDE
from analysis.defaults import ROUNDS_COMPILATIONS_NOTED
from analysis.formatting.tables import markdown_table
from harness.model.defaults import SHORT_WARMUP_FRACTION
from harness.model.folder.cpu_state import finding_text, state_lines
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.records import MEASURED, RowStatus
from harness.model.folder.run_records import CalibrationRecord
from harness.model.stats.interference import (
    INTERFERENCE_THRESHOLD,
    REPLACEMENTS_PER_CELL,
    disturbance,
    interference_share,
)


def calibration_drift(calibrations: list[CalibrationRecord]) -> pd.DataFrame:
    """One row per calibration, with its median relative to the first one on the same CPU set."""
    df = pd.DataFrame([c.to_dict() for c in calibrations])
    if df.empty:
        return df
    if "workload" not in df:
        df["workload"] = "sha256"
    first = df.groupby(["cpuset", "workload"])["median_ms"].transform("first")
    return df.assign(relative_to_first=df["median_ms"] / first)


def disturbed_processes(rows: pd.DataFrame) -> pd.DataFrame:
    """Processes whose CPU spent more than INTERFERENCE_THRESHOLD of their wall time on other work or other guests
    (harness/model/stats/interference.py `disturbance`): the rows the harness marked 'disturbed' (replaced, or left out
    once their cell's replacements ran out) and, in runs made before it did, measured rows over the threshold."""
    timed = rows[rows["status"].isin([*MEASURED, RowStatus.DISTURBED])]
    if timed.empty or "cpu_other_ms" not in timed:
        return timed.iloc[0:0].assign(interference=[])
    share = pd.Series([interference_share(r) for r in timed.itertuples()], index=timed.index, dtype=float)
    flagged = pd.Series([disturbance(r) is not None for r in timed.itertuples()], index=timed.index, dtype=bool)
    return timed.assign(interference=share)[flagged | (timed["status"] == RowStatus.DISTURBED)]


def replaced_markdown(rows: pd.DataFrame) -> str:
    """One line: disturbed processes replaced by fresh ones, and rounds left disturbed, by cell."""
    disturbed = rows[rows["status"] == RowStatus.DISTURBED]
    if disturbed.empty:
        return "- Disturbed processes replaced by fresh ones: none."
    replaced = disturbed[disturbed["replaced"].notna()] if "replaced" in disturbed else disturbed.iloc[0:0]
    kept = disturbed.drop(replaced.index)
    by_cell = replaced.groupby("cell_id").size()
    text = (
        f"- Disturbed processes replaced by fresh ones in the same round: {len(replaced)} "
        "(kept in results.jsonl, left out of every ratio and mean"
        + ("" if by_cell.empty else "; " + ", ".join(f"{cell} {n}" for cell, n in by_cell.items()))
        + ")."
    )
    if not kept.empty:
        text += (
            f" Left disturbed once their cell's {REPLACEMENTS_PER_CELL} replacements were spent (not in the "
            f"statistics either): {len(kept)} round(s) of " + ", ".join(dict.fromkeys(kept["cell_id"])) + "."
        )
    return text


def cpu_hygiene_markdown(env: EnvironmentRecord | None) -> list[str]:
    """Bullet lines on the lab's CPUs (which were used, isolated or not, their governor, turbo and SMT state) and each
    finding with the command that fixes it; none for runs recorded before environment.json had 'cpu_hygiene'."""
    record = env.cpu_hygiene if env else None
    if not record:
        return []
    return [f"- {line}." for line in state_lines(record)] + [
        f"- Risk: {finding_text(f)}" for f in record.get("findings") or []
    ]


def set_aside_markdown(rows: pd.DataFrame) -> str:
    """One line: the processes the analysis set aside (analysis/compute/load.py set_aside) and why, by group."""
    aside = rows[rows["error"].fillna("").str.startswith(SET_ASIDE)] if "error" in rows else rows.iloc[0:0]
    processes = aside.drop_duplicates(["isa_requested", "experiment", "group", "runtime_requested", "round_index"])
    if processes.empty:
        return (
            "- Warm-ups cut short (a process whose warm-up compiled under "
            f"{SHORT_WARMUP_FRACTION:.0%} of its cell's median JIT count in under {SHORT_WARMUP_FRACTION:.0%} of its "
            "median warm-up time, set aside): none."
        )
    where = processes.groupby(["experiment", "group", "isa_requested", "runtime_requested"]).size()
    return (
        "- Warm-ups cut short, set aside (kept in results.jsonl, left out of every ratio and mean; the stopping rule "
        "ran those "
        f"groups on): {len(processes)} processes, their warm-up compiled under {SHORT_WARMUP_FRACTION:.0%} of the "
        "median JIT "
        f"count of their cell's processes in under {SHORT_WARMUP_FRACTION:.0%} of its time, so their code had not "
        "finished tiering up — "
        + "; ".join(f"{e}:{g} at {lvl} on {rt}: {n}" for (e, g, lvl, rt), n in where.items())
        + "."
    )


def rounds_compilations_markdown(rows: pd.DataFrame) -> list[str]:
    """One line on the JIT compilations while paired processes' rounds were timed, naming the groups whose processes
    compiled more than ROUNDS_COMPILATIONS_NOTED (their code changed under the timer); none without the count."""
    if "rounds_compilations" not in rows:
        return []
    counted = rows[rows["status"].isin(MEASURED) & rows["rounds_compilations"].notna()]
    processes = counted.drop_duplicates(["isa_requested", "experiment", "group", "runtime_requested", "round_index"])
    if processes.empty:
        return []
    keys = ["experiment", "group", "isa_requested", "runtime_requested"]
    per_group = processes.groupby(keys)["rounds_compilations"].agg(["median", "min", "max", "size"])
    noted = per_group[per_group["median"] > ROUNDS_COMPILATIONS_NOTED]
    line = (
        f"- JIT compilations while the rounds were timed: a median {processes['rounds_compilations'].median():.0f} per "
        "paired process (the runtime's own gen-2 callbacks among them)"
    )
    if noted.empty:
        return [line + f"; no group's processes compiled more than {ROUNDS_COMPILATIONS_NOTED}."]
    return [
        line
        + f"; groups whose processes compiled more than {ROUNDS_COMPILATIONS_NOTED}, so their code changed under the "
        "timer (their ratios mix tiers; a longer warm-up or a look at what compiles is the fix): "
        + "; ".join(
            f"{e}:{g} at {lvl} on {rt}: {int(r['min'])}–{int(r['max'])} in {int(r['size'])} processes"
            for (e, g, lvl, rt), r in noted.iterrows()
        )
        + "."
    ]


def noise_markdown(
    rows: pd.DataFrame, cells: pd.DataFrame, calibrations: list[CalibrationRecord], env: EnvironmentRecord | None
) -> str:
    """The 'Noise' section: quantified, then the host's risks with their fixes."""
    lines = ["## Noise on this host\n"]
    lines += _spread_lines(cells)
    drift = calibration_drift(calibrations)
    lines += _calibration_lines(drift)
    disturbed = disturbed_processes(rows)
    lines.append(_disturbed_line(rows, disturbed))
    lines.append(replaced_markdown(rows))
    lines.append(set_aside_markdown(rows))
    lines.extend(rounds_compilations_markdown(rows))
    lines.extend(cpu_hygiene_markdown(env))
    for warning in env.warnings if env else []:
        lines.append(f"- Risk: {warning}")
    text = "\n".join(lines) + "\n"
    if not drift.empty:
        text += "\n" + _drift_table(drift)
    if not disturbed.empty:
        text += "\n" + _disturbed_table(rows, disturbed)
    return text


def _spread_lines(cells: pd.DataFrame) -> list[str]:
    """How much fresh processes of one cell differed against the iterations inside one process (none when no cell has
    a spread)."""
    measured = cells[cells["status"].isin(MEASURED)]
    spread = measured["between_process_cv"].dropna()
    within = measured["within_rel_ci99"].dropna()
    if spread.empty:
        return []
    return [
        f"- Fresh processes of one cell differed by a median {100 * spread.median():.1f}% (coefficient of "
        "variation of their "
        f"means; quartiles {100 * spread.quantile(0.25):.1f}–{100 * spread.quantile(0.75):.1f}%), while the "
        "iterations inside "
        f"one process agreed to a median ±{100 * within.median():.1f}% (99% CI): the process, not the iteration, "
        "is the unit of "
        "replication."
    ]


def _calibration_lines(drift: pd.DataFrame) -> list[str]:
    """How far each calibration workload varied over the run (none without calibrations)."""
    if drift.empty:
        return []
    swings = drift.groupby("workload")["relative_to_first"].agg(lambda s: s.max() / s.min() - 1)
    return [
        "- Calibration workloads (the same work each time; `sha256` stays in the core, `memory` misses every "
        "cache): "
        + "; ".join(f"{w} varied by up to {100 * s:.1f}%" for w, s in swings.items())
        + " over the run (table below)."
    ]


def _disturbed_line(rows: pd.DataFrame, disturbed: pd.DataFrame) -> str:
    """How many processes were disturbed, of all, and the time stolen by the hypervisor where it was read."""
    total = int(rows["status"].isin([*MEASURED, RowStatus.DISTURBED]).sum())
    steal = rows["steal_ms"].sum(min_count=1) if "steal_ms" in rows else None
    return (
        f"- Disturbed processes (over {INTERFERENCE_THRESHOLD:.0%} of their CPU's time spent on other work or stolen "
        "by the "
        f"hypervisor): {len(disturbed)} of {total}."
        + ("" if pd.isna(steal) or steal is None else f" Steal over all processes: {steal / 1000:.1f} s.")
    )


def _drift_table(drift: pd.DataFrame) -> str:
    """The calibrations as a table: when, on which CPUs, which workload and how far from the first."""
    return markdown_table(
        ["When", "CPU", "Workload", "Median per repetition", "Relative to the first", "CV of repetitions"],
        [
            [
                r.label,
                r.cpuset,
                r.workload,
                f"{r.median_ms:.2f} ms",
                f"{r.relative_to_first:.3f}",
                f"{100 * r.cv:.1f}%",
            ]
            for r in drift.itertuples()
        ],
    )


def _disturbed_table(rows: pd.DataFrame, disturbed: pd.DataFrame) -> str:
    """The disturbed processes as a table: the cell, the round (and replacement), the time lost and the log."""
    return markdown_table(
        ["Disturbed process", "Round", "Other work + steal", "Involuntary context switches", "Log"],
        [
            [
                r.cell_id,
                f"{r.round_index}"
                + (f" (replaced, attempt {r.replaced:.0f})" if "replaced" in rows and pd.notna(r.replaced) else ""),
                f"{100 * r.interference:.0f}% of {r.duration_s:.1f} s",
                "—" if pd.isna(r.involuntary_context_switches) else f"{r.involuntary_context_switches:.0f}",
                f"`{r.log_path}`",
            ]
            for r in disturbed.itertuples()
        ],
    )
