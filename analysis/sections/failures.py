"""Failures: the cells that failed, with their errors."""

from __future__ import annotations

import pandas as pd

from analysis.formatting.tables import markdown_table
from harness.model.folder.records import RowStatus


def failures_markdown(cells: pd.DataFrame) -> str:
    """Cells without a valid measurement, with their error and log."""
    failed = cells[cells["status"] == RowStatus.FAILED]
    if failed.empty:
        return ""
    return "## Failed cells\n\n" + markdown_table(
        ["Cell", "Error", "Log"], [[r["cell_id"], r["error"], f"`{r['log_path']}`"] for _, r in failed.iterrows()]
    )
