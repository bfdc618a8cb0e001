"""What every report section is computed from: one object, passed to each section by the report."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import pandas as pd

from analysis.compute.verdicts.chart_refs import ChartRef
from harness.model.experiment import Experiment
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.run_records import CalibrationRecord, GroupRecord, NoiseProbeRecord, RunRecord, TimelineRecord

#: The key of the cold-start charts in compose_report's `charts` (experiment ids key the others).
COLD_CHARTS = "cold-start"


@dataclass(frozen=True)
class ReportInputs:
    """Everything a report is computed from."""

    experiments: list[Experiment]
    cells: pd.DataFrame
    rows: pd.DataFrame
    verdicts: pd.DataFrame
    env: EnvironmentRecord | None
    run: RunRecord
    levels: list[str]
    calibrations: list[CalibrationRecord]
    timeline: list[TimelineRecord] = dataclasses.field(default_factory=list)
    cold: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)  # analysis.cold_start.cold_table()
    cross_language: pd.DataFrame = dataclasses.field(
        default_factory=pd.DataFrame
    )  # analysis.cross_language.cross_language_table()
    conformance: pd.DataFrame = dataclasses.field(
        default_factory=pd.DataFrame
    )  # analysis.conformance.load_conformance()
    groups: list[GroupRecord] = dataclasses.field(default_factory=list)  # how each group stopped (groups.jsonl)
    setup: pd.DataFrame = dataclasses.field(default_factory=pd.DataFrame)  # analysis.compute.verdicts.setup_factors
    set_aside: str = ""  # a torn last line of results.jsonl left out (analysis/compute/load.py)
    noise_probe: NoiseProbeRecord | None = None  # the forecast the run made at its start (noise_probe.json)
    # where the experiments came from when not the run's own copy (analysis/compute/run_experiments.py)
    experiments_note: str = ""
    #: The report's charts, as markdown image lines: experiment ids, COLD_CHARTS and CROSS_LANGUAGE_CHARTS key them.
    charts: dict[str, list[ChartRef]] = dataclasses.field(default_factory=dict)
