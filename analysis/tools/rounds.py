"""How many rounds one paired process should run: ratio CI half-width at equal machine time, and the measured share.

A paired process of r rounds is exactly the first r rounds of a longer process: the same start, verification and joint
warm-up, then the same rounds in the same order. So one run of long processes (experiments/profiles.toml, profile
`rounds`) holds every shorter design as a prefix. For each ratio and each r this module takes, per process, the median
of the first r per-round ratios (the statistic the lab uses), their spread across processes, and the machine time a
process of r rounds costs (its wall time less the rounds it would not have run: their bursts, the collections between
them and any input refreshes). A group with machine time B affords n = B / time(r) processes, and its ratio's 99%
interval
is t(n-1) · sd(r) / √n on the log scale. The budget B is what the run's processes cost at the profile's default rounds,
so every r is judged at the same machine time. The measured share is the bursts' part of a process's wall time.
"""

from __future__ import annotations

import math
import pathlib

import numpy as np
import pandas as pd

from analysis.compute.load import RunData, set_aside
from analysis.formatting.tables import markdown_table
from harness.model.errors import HarnessError
from harness.model.folder.lab_files import ProcessRecord, read_run_process
from harness.model.folder.records import MEASURED
from harness.model.groups import is_aa_copy
from harness.model.stats.stats import t_quantile

#: The rounds per process the default profile runs (experiments/profiles.toml: burst_rounds); the budget's reference.
DEFAULT_ROUNDS = 15
#: Prefix lengths tried, capped at the run's rounds.
ROUND_GRID = (4, 6, 8, 10, 15, 20, 30, 40, 60, 80, 120)


def _process_costs(run: RunData, rows: pd.DataFrame) -> dict[str, dict[str, float]]:
    """Per paired process (its raw folder): wall time (s), rounds, per-round cost (s) and bursts (s), from
    process.json."""
    out: dict[str, dict[str, float]] = {}
    for folder, g in rows.groupby(rows["raw_path"].map(lambda p: str(pathlib.PurePath(p).parent.parent)), sort=False):
        info = read_run_process(run.directory, folder)
        if info is None or info.bursts_ms is None or info.collections_between_bursts_ms is None:
            raise HarnessError(
                f"{run.directory / folder / ProcessRecord.FILE} does not give the process's bursts_ms and "
                "collections_between_bursts_ms (or is missing)",
                "the rounds tool reads each paired process's process.json: restore the run folder from a copy",
            )
        rounds = max(len(g["burst_ns"].iloc[0]), 1)
        per_round_ms = info.bursts_ms + info.collections_between_bursts_ms + (info.fresh_inputs_ms or 0.0)
        out[folder] = {
            "wall_s": float(g["duration_s"].sum()),
            "rounds": rounds,
            "round_s": per_round_ms / rounds / 1e3,
            "bursts_s": info.bursts_ms / 1e3,
        }
    return out


def _joint_count(directory: pathlib.Path, folder: str) -> int | None:
    """A process's joint warm-up JIT count from its process.json (None where it has none)."""
    info = read_run_process(directory, folder)
    return info.joint_prewarm_compilations if info else None


def _with_joint_counts(directory: pathlib.Path, rows: pd.DataFrame) -> pd.DataFrame:
    """Rows normalized before they carried their warm-up's JIT count get it from their process.json."""
    missing = (
        rows["prewarm_compilations"].isna()
        if "prewarm_compilations" in rows
        else pd.Series(True, index=rows.index, dtype=bool)
    )
    counts = {folder: _joint_count(directory, folder) for folder in set(rows.loc[missing, "process"])}
    rows["prewarm_compilations"] = [
        counts.get(p) if m else c
        for p, m, c in zip(
            rows["process"], missing, rows.get("prewarm_compilations", pd.Series(None, index=rows.index, dtype=object))
        )
    ]
    return rows


def _prefix_ratio(variant: list[float], reference: list[float], r: int) -> float:
    return float(np.median(np.asarray(variant[:r]) / np.asarray(reference[:r])))


def rounds_table(run: RunData, default_rounds: int = DEFAULT_ROUNDS) -> pd.DataFrame:
    """One row per (ratio, r): the per-process spread, the process cost, the processes the budget affords and the
    half-width they reach, and the measured share."""
    rows = run.rows[run.rows["burst_ns"].map(lambda b: isinstance(b, list) and len(b) > 0).astype(bool)].copy()
    rows["process"] = rows["raw_path"].map(lambda p: str(pathlib.PurePath(p).parent.parent))
    rows = set_aside(_with_joint_counts(run.directory, rows))
    rows = rows[rows["status"].isin(MEASURED)]
    costs = _process_costs(run, rows)
    out: list[dict[str, object]] = []
    for (level, experiment, group, runtime), g in rows.groupby(
        ["isa_requested", "experiment", "group", "runtime_requested"], sort=False
    ):
        processes = sorted(set(g["process"]))
        rounds = min(int(costs[p]["rounds"]) for p in processes)
        grid = [r for r in ROUND_GRID if r <= rounds]
        cost, share = _prefix_costs(costs, processes, grid)
        reference_r = min(default_rounds, rounds)
        budget_s = len(processes) * cost[reference_r] if reference_r in cost else len(processes) * cost[grid[-1]]
        label = f"{experiment}:{group}@{level}/{runtime}"
        out += _ratio_rows(run.run.run_id, label, g, processes, grid, cost, share, budget_s)
    return pd.DataFrame(out)


def _prefix_costs(
    costs: dict[str, dict[str, float]], processes: list[str], grid: list[int]
) -> tuple[dict[int, float], dict[int, float]]:
    """Per r of the grid: the mean machine time (s) of the group's processes cut to r rounds, and the mean share of it
    in measured bursts."""
    cost = {
        r: float(np.mean([costs[p]["wall_s"] - (costs[p]["rounds"] - r) * costs[p]["round_s"] for p in processes]))
        for r in grid
    }
    share = {
        r: float(
            np.mean(
                [
                    costs[p]["bursts_s"]
                    * r
                    / costs[p]["rounds"]
                    / (costs[p]["wall_s"] - (costs[p]["rounds"] - r) * costs[p]["round_s"])
                    for p in processes
                ]
            )
        )
        for r in grid
    }
    return cost, share


def _ratio_rows(
    run_id: str,
    label: str,
    g: pd.DataFrame,
    processes: list[str],
    grid: list[int],
    cost: dict[int, float],
    share: dict[int, float],
    budget_s: float,
) -> list[dict[str, object]]:
    """One row per ratio of group `label` (each benchmark over the baseline, paired in three or more processes) and
    r: the spread of the per-process ratio over its first r rounds, and the half-width the budget reaches at r."""
    baseline = g["baseline"].iloc[0]
    by_process = {(b.benchmark, b.process): list(b.burst_ns) for b in g.itertuples()}
    out: list[dict[str, object]] = []
    for benchmark in dict.fromkeys(g["benchmark"]):
        if benchmark == baseline:
            continue
        pairs = [
            (by_process[(benchmark, p)], by_process[(baseline, p)])
            for p in processes
            if (benchmark, p) in by_process and (baseline, p) in by_process
        ]
        if len(pairs) < 3:
            continue
        for r in grid:
            logs = np.log([_prefix_ratio(v, b, r) for v, b in pairs])
            sd = float(np.std(logs, ddof=1))
            n = budget_s / cost[r]
            half = math.expm1(t_quantile(max(2, int(round(n)))) * sd / math.sqrt(n)) if n >= 2 else float("nan")
            out.append(
                {
                    "run_id": run_id,
                    "group": label,
                    "benchmark": benchmark,
                    "aa": is_aa_copy(benchmark),
                    "rounds": r,
                    "processes_measured": len(pairs),
                    "log_sd": sd,
                    "ratio": float(math.exp(np.mean(logs))),
                    "process_s": cost[r],
                    "measured_share": share[r],
                    "budget_s": budget_s,
                    "processes_in_budget": n,
                    "rel_half_width": half,
                }
            )
    return out


def rounds_summary(table: pd.DataFrame) -> pd.DataFrame:
    """Per group and r: medians over the group's ratios (A/A copies apart)."""
    real = table[~table["aa"]]
    return (
        real.groupby(["group", "rounds"], sort=False)
        .agg(
            ratios=("benchmark", "count"),
            log_sd=("log_sd", "median"),
            process_s=("process_s", "first"),
            measured_share=("measured_share", "first"),
            processes_in_budget=("processes_in_budget", "first"),
            rel_half_width=("rel_half_width", "median"),
            worst_half_width=("rel_half_width", "max"),
        )
        .reset_index()
    )


def rounds_markdown(summary: pd.DataFrame, run_id: str, default_rounds: int = DEFAULT_ROUNDS) -> str:
    """The table with its reading: per group, the r that reaches the narrowest median interval at equal machine time."""
    lines = [
        f"# Rounds per paired process (run {run_id})\n",
        "Every shorter process is a prefix of the run's long ones. Per group and rounds per process r: the spread of "
        "the "
        "per-process ratio across processes (log sd, median over the group's ratios; A/A copies apart), the machine "
        "time one "
        "process costs, the share of it in measured bursts, and the 99% half-width a group reaches when it spends "
        "what its "
        f"processes cost at r = {default_rounds} (the default), n = budget / process time.\n",
    ]
    headers = [
        "Group",
        "Rounds",
        "Ratios",
        "Per-process log sd",
        "Process time",
        "Measured share",
        "Processes in budget",
        "Median half-width",
        "Worst half-width",
    ]
    rows = [
        [
            r.group,
            r.rounds,
            r.ratios,
            f"{100 * r.log_sd:.2f}%",
            f"{r.process_s:.1f} s",
            f"{100 * r.measured_share:.0f}%",
            f"{r.processes_in_budget:.1f}",
            f"±{100 * r.rel_half_width:.2f}%",
            f"±{100 * r.worst_half_width:.2f}%",
        ]
        for r in summary.itertuples()
    ]
    lines.append(markdown_table(headers, rows))
    best = summary.loc[summary.groupby("group", sort=False)["rel_half_width"].idxmin()]
    lines.append(
        "\nNarrowest median half-width at equal machine time: "
        + "; ".join(
            f"{r.group}: r = {r.rounds} (±{100 * r.rel_half_width:.2f}%, measured share {100 * r.measured_share:.0f}%)"
            for r in best.itertuples()
        )
        + ".\n"
    )
    return "\n".join(lines)


def write_rounds(run: RunData, out: pathlib.Path) -> pathlib.Path:
    """rounds.md and rounds.csv (one row per ratio and r) in `out`; returns the markdown's path."""
    table = rounds_table(run)
    if table.empty:
        raise HarnessError(
            f"run {run.directory} has no paired processes with three or more replicates of a ratio",
            "run the rounds profile first: python3 -m harness run --profile rounds",
        )
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "rounds.csv", index=False)
    path = out / "rounds.md"
    path.write_text(rounds_markdown(rounds_summary(table), str(run.run.run_id)))
    return path
