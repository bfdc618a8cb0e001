"""Setup: each published machine's setup beside this run's, factor by factor, with what this host can change."""

from __future__ import annotations

import pandas as pd

from analysis.compute.verdicts.setup_factors import NO, NOT_YET, SAME, UNSTATED, YES
from analysis.formatting.tables import markdown_table

LEGEND = (
    f"**{SAME}**: the run matches the publisher; **{YES}**: this host can switch to the publisher's value (how); "
    f"**{NO}**: this host cannot (why); **{NOT_YET}**: the lab cannot yet; "
    f"**{UNSTATED}**: the write-up does not say. "
    'A factor that differs is a candidate explanation of a verdict that is not "reproduced"; the publisher\'s column '
    "is the write-up's own words (the experiment file's `[hardware.<key>.setup]`, with its sources)."
)


def setup_markdown(table: pd.DataFrame) -> str:
    """One table per published machine: factor | publisher | this run | can the lab change it here."""
    if table.empty:
        return ""
    parts = ["## Setup: publisher and this run\n", LEGEND, "Rows: [tables/setup.csv](tables/setup.csv).\n"]
    for (experiment, hardware), rows in table.groupby(["experiment", "hardware"], sort=False):
        changed = rows[rows["changeable"].isin([YES, NO, NOT_YET])]
        parts.append(
            f"### {experiment} ({hardware}): {len(changed)} of {len(rows)} factors differ, "
            f"{int((rows['changeable'] == YES).sum())} of them changeable here\n"
        )
        parts.append(
            markdown_table(
                ["Factor", "Publisher", "This run", "Can the lab change it here"],
                [
                    [r.factor, r.published, r.this_run, r.changeable + (f": {r.how}" if r.how else "")]
                    for r in rows.itertuples()
                ],
            )
        )
    return "\n".join(parts)
