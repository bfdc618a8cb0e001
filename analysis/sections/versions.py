"""Library versions: the versions measured beside the versions published."""

from __future__ import annotations

import pandas as pd

from analysis.compute.verdicts.setup_here import measured_versions
from analysis.formatting.tables import markdown_table
from harness.model.cells import Cell
from harness.model.experiment import Experiment
from harness.model.folder.environment_record import EnvironmentRecord


def versions_markdown(experiments: list[Experiment], env: EnvironmentRecord | None, cells: pd.DataFrame) -> str:
    """Each write-up's library versions beside the versions this run loaded (read inside the lab processes of the
    builds that ran the experiment's cells; one version per runtime where they differ)."""
    labs = env.labs if env else {}
    rows = []
    for exp in experiments:
        mine = cells[cells["experiment"] == exp.id]
        if mine.empty:
            continue
        targets = [Cell.target_of(lab, runtime) for lab, runtime in zip(mine["lab"], mine["runtime_requested"])]
        for library, versions in measured_versions(exp, env, cells).items():
            published = exp.published_versions[library]
            measured = ", ".join(versions) or "not loaded"
            if library.startswith("System.Text.Json") and versions:
                runtimes = "; ".join(dict.fromkeys(labs[t].runtime_description for t in targets if t in labs))
                measured = f"in-box {measured} ({runtimes})"
            same = "same" if versions == [published] else "**differs**"
            rows.append([exp.id, library, published, measured, same])
    if not rows:
        return ""
    return (
        "## Versions: published and measured\n\nThe versions each write-up used, beside the ones this run loaded. "
        "Where the "
        "NuGet feed of this machine does not serve the published version, the nearest served one is used and the "
        "difference is part of any disagreement.\n\n"
        + markdown_table(["Experiment", "Library", "Published", "Measured here", ""], rows)
    )
