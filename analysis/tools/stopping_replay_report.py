"""The stopping replay's page: each rule's outcome beside the hour run as measured (analysis/tools/stopping_replay.py
computes them), written as replay.md with the rounds per group and rule as rounds.csv."""

from __future__ import annotations

import math
import pathlib

from analysis.compute.load import RunData
from analysis.formatting.tables import markdown_table
from analysis.tools.stopping_replay import replay
from harness.config.experiment.profiles import Stopping


def replay_markdown(long_id: str, hour_id: str, summary: dict) -> str:
    """The replay's outcome per rule, beside the hour run as measured."""
    rows = []
    for name, o in summary["outcomes"].items():
        ci = o["median_ratio_ci"]
        rows.append(
            [
                name,
                str(o["processes"]),
                f"{o['machine_min']:.1f}",
                "—" if ci is None or (isinstance(ci, float) and math.isnan(ci)) else f"±{100 * ci:.2f}%",
                str(o["inconclusive"]),
                str(o["differ_from_all"]),
                ", ".join(f"{n} {v}" for v, n in sorted(o["verdicts"].items(), key=lambda item: -item[1])),
            ]
        )
    return (
        f"# Stopping rules replayed on run `{long_id}`\n\n"
        f"Machine time shared: {summary['budget_min']:.1f} min, what run `{hour_id}` spent in its steady processes. "
        "Each rule's groups are cut to the rounds it would have given them; the verdicts and the median ratio CI are "
        "the report's own, over the cut rows (analysis/tools/stopping_replay.py says how). 'Not those of all "
        "processes': verdicts that differ from what every recorded process together says, the best estimate there "
        "is: the price of stopping early, or of a shorter run.\n\n"
        + markdown_table(
            [
                "",
                "processes",
                "machine min",
                "median ratio CI",
                "inconclusive",
                "verdicts not those of all processes",
                "primary verdicts",
            ],
            rows,
        )
        + "\n"
    )


def write_replay(
    long_run: RunData, hour_run: RunData, stopping: Stopping, floor: int, out: pathlib.Path
) -> pathlib.Path:
    """Writes replay.md and rounds.csv (rounds per group per rule) into `out`; returns replay.md's path."""
    table, summary = replay(long_run, hour_run, stopping, floor)
    out.mkdir(parents=True, exist_ok=True)
    table.to_csv(out / "rounds.csv", index=False)
    path = out / "replay.md"
    path.write_text(replay_markdown(long_run.directory.name, hour_run.directory.name, summary))
    return path
