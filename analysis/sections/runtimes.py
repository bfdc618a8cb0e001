"""Runtimes: the stand-in runtime measured for each published one."""

from __future__ import annotations

import pandas as pd

from analysis.formatting.tables import markdown_table
from harness.model.experiment import Experiment
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.records import DEFAULT_RUNTIME


def runtimes_markdown(experiments: list[Experiment], verdicts: pd.DataFrame, env: EnvironmentRecord | None) -> str:
    """Which lab runtime stood in for each published runtime (the one its primary verdicts were read on)."""
    if verdicts.empty or set(verdicts["runtime"]) <= {DEFAULT_RUNTIME, "—"}:
        return ""
    versions = {lab.runtime: lab.runtime_description for lab in (env.labs if env else {}).values() if lab.runtime}
    rows = []
    for exp in experiments:
        mine = verdicts[(verdicts["experiment"] == exp.id) & verdicts["primary"] & (verdicts["runtime"] != "—")]
        for runtime_text, hits in mine.groupby("published_runtime", sort=False):
            for runtime in dict.fromkeys(hits["runtime"]):
                wanted = next((h.lab_runtimes for h in exp.hardware.values() if h.runtime == runtime_text), ())
                if runtime in runtime_text.split():
                    how = "the published runtime"
                elif not wanted:
                    how = "stand-in: the lab's default runtime"
                else:
                    how = "stand-in" + (
                        "" if runtime == wanted[0] else f" ({wanted[0]}, preferred, is not built by this lab)"
                    )
                rows.append(
                    [
                        exp.id,
                        runtime_text,
                        runtime,
                        versions.get(runtime, "—"),
                        how,
                        str(len(hits[hits["runtime"] == runtime])),
                    ]
                )
    return (
        "## Runtimes: published and measured\n\nEach figure's primary verdict is read on the lab runtime standing in "
        "for the "
        "runtime it was published on (the experiment's `lab_runtimes`, first one the lab is built for). Each runtime "
        "is a "
        "self-contained build of the lab whose version was read back inside every measured process. Other runtimes of "
        "the run are verdicts too, marked not primary.\n\n"
        + markdown_table(
            ["Experiment", "Published on", "Lab runtime", "Measured runtime", "", "Primary verdicts"], rows
        )
    )
