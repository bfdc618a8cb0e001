"""The native anchors (job setting native_anchors): asked for where they cannot be timed, the run stops first."""

from __future__ import annotations

from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell, JobSettings
from harness.model.errors import ConfigError
from harness.model.folder.records import STEADY


def check_native_anchors(job: JobSettings, shares_process: bool, cells: list[Cell], labs: dict[str, LabSpec]) -> None:
    """Native anchors are timed inside paired processes of labs that have them; asked for elsewhere, the run stops
    before it starts rather than measure without them."""
    if not job.native_anchors:
        return
    if not shares_process:
        raise ConfigError(
            "native_anchors times the anchors inside paired processes, and this design runs each cell alone",
            "run with --design paired (the default profile's design), or without --job native_anchors=1",
        )
    lacking = sorted({c.lab for c in cells if c.measure == STEADY and not labs[c.lab].native_anchors})
    if lacking:
        raise ConfigError(
            f"native_anchors was asked for, and lab(s) {', '.join(lacking)} have no native anchors",
            "narrow the run to experiments of labs that have them (--experiment, --variant), "
            "or run without --job native_anchors=1",
        )
