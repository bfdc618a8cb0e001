"""Building result rows for a cell: measured, failed or skipped."""

from __future__ import annotations

from dataclasses import dataclass

from harness.config.experiment.run_settings import RunSetting, readback_state, unmet_settings
from harness.config.isa import IsaLevel, describe_effective, unmet_expectations
from harness.model.cells import Cell
from harness.model.cpusets import parse_cpuset
from harness.model.folder.environment_record import BuildWhere
from harness.model.folder.records import ResultRow, RowStatus, VerificationStatus
from harness.model.json_value import JsonObject, JsonValue, as_text
from harness.model.outcomes import CellOutcome, ProcessUsage
from harness.session.processes.probe import UNVERIFIABLE, LevelProbe


@dataclass(frozen=True)
class RowContext:
    """What every row of a cell shares, whatever happened to it."""

    run_id: str
    cell: Cell
    cpuset: str
    profile: str
    level: LevelProbe
    emulated: bool | None
    log_path: str | None = None
    started_at: str | None = None
    duration_s: float | None = None
    round_index: int = 1
    round_count: int = 1
    design: str = "sequential"
    partner: str | None = None
    usage: ProcessUsage | None = None
    raw_folder: str = "round-1"
    process_cells: int | None = None  # cells the process measured (paired design); None: one
    # the backend's identity fields (backend, image, image_id; host); None: no backend ran it (its build failed)
    where: BuildWhere | None = None

    def base(self) -> JsonObject:
        """Identity and configuration fields of the row."""
        c = self.cell
        return {
            "run_id": self.run_id,
            "cell_id": c.cell_id,
            "experiment": c.experiment,
            "benchmark": c.benchmark,
            "group": c.group,
            "baseline": c.baseline,
            "lab": c.lab,
            "variant": c.variant,
            "dataset": c.dataset,
            "operation": c.operation,
            "isa_requested": c.isa_level,
            "runtime_requested": c.place,
            "run_settings": {name: value for name, value in c.run_settings},
            "measure": c.measure,
            "cpuset": self.cpuset,
            "profile": self.profile,
            "isa_switches": {**self.level.switches},
            "emulated": self.emulated,
            "log_path": self.log_path,
            "started_at": self.started_at,
            "duration_s": self.duration_s,
            "round_index": self.round_index,
            "round_count": self.round_count,
            "design": self.design,
            "partner": self.partner,
            "process_cells": self.process_cells,
            **(self.usage.fields() if self.usage else {}),
            **_identity(self.where or BuildWhere()),
        }


def _identity(where: BuildWhere) -> JsonObject:
    """The row fields saying where the process ran (the backend's identity: Backend.identity)."""
    return {
        "backend": where.get("backend"),
        "host": where.get("host"),
        "image": where.get("image"),
        "image_id": where.get("image_id"),
    }


def measured_row(
    ctx: RowContext, outcome: CellOutcome, level: IsaLevel, settings: dict[str, RunSetting] | None = None
) -> ResultRow:
    """Row for a cell that produced numbers. The ISA readback of the measured process is checked
    here: a level that did not take effect makes the measurement invalid, so the cell fails; so do run settings
    (`settings`: the lab's [run_settings]) the process reads back otherwise."""
    unverifiable = ctx.level.state == UNVERIFIABLE
    unmet = [] if unverifiable else unmet_expectations(level, outcome.isa_flags)
    cell = ctx.cell
    unmet_run = unmet_settings(settings or {}, cell.lab, cell.run_settings, outcome.settings_readback)
    wrong_cpus = cpuset_mismatch(ctx.cpuset, as_text(outcome.fields.get("cpuset_effective")))
    stats = outcome.statistics
    fields: JsonObject = {
        **ctx.base(),
        **outcome.fields,
        "isa_flags": {**outcome.isa_flags},
        **(
            {
                "run_settings_readback": {**outcome.settings_readback},
                "run_settings_checked": readback_state(settings or {}, cell.lab, cell.run_settings),
            }
            if cell.run_settings
            else {}
        ),
        "isa_effective": UNVERIFIABLE if unverifiable else describe_effective(outcome.isa_flags),
        "n": stats.n,
        "mean_ns": stats.mean_ns,
        "median_ns": stats.median_ns,
        "stddev_ns": stats.stddev_ns,
        "ci99_lower_ns": stats.ci99_lower_ns,
        "ci99_upper_ns": stats.ci99_upper_ns,
        "ci99_half_width_ns": stats.ci99_half_width_ns,
        "min_ns": stats.min_ns,
        "max_ns": stats.max_ns,
        "verification_status": outcome.verification.status,
        "verification_message": outcome.verification.message,
    }
    if unmet:
        fields.update(
            status=RowStatus.FAILED,
            error=f"ISA level '{level.name}' did not take effect in the measured process: {', '.join(unmet)}",
        )
    elif unmet_run:
        fields.update(
            status=RowStatus.FAILED,
            error=f"run settings did not take effect in the measured process: {'; '.join(unmet_run)}",
        )
    elif wrong_cpus:
        fields.update(status=RowStatus.FAILED, error=wrong_cpus)
    else:
        passed = outcome.verification.status == VerificationStatus.PASSED
        fields["status"] = RowStatus.OK if passed else RowStatus.UNVERIFIED
    try:
        return _row(fields)
    except ValueError as e:  # a lab's numbers no row can hold (a negative time, a count that is not whole …)
        return failed_row(ctx, f"lab {cell.lab}: its output gives no valid result row: {e}")


def cpuset_mismatch(requested: str, effective: str | None) -> str | None:
    """Why the process's own CPU set (read back inside it) voids the cell; None when it matches or was not reported."""
    if not effective:
        return None
    if all(parse_cpuset(one) == parse_cpuset(requested) for one in effective.split(";")):
        return None
    return (
        f"the measured process ran on CPUs {effective}, not the requested {requested}: the pinning did not take effect "
        "(a container engine without cpuset support, or an affinity changed by the lab)"
    )


def failed_row(ctx: RowContext, error: str) -> ResultRow:
    """Row for a cell that produced no valid measurement."""
    return _row(ctx.base(), status=RowStatus.FAILED, error=error)


def skipped_row(ctx: RowContext, reason: str) -> ResultRow:
    """Row for a cell not run on purpose (its level is identical to native here)."""
    return _row(
        ctx.base(),
        status=RowStatus.SKIPPED,
        error=reason,
        isa_effective=ctx.level.isa_effective,
        isa_flags={**ctx.level.flags},
    )


def _row(fields: JsonObject, **more: JsonValue) -> ResultRow:
    """The row read as the analysis will read it (ResultRow.from_dict: each field's type, no negative time, size or
    count), so that the writer is held to the reader's checks; ValueError naming the field otherwise."""
    return ResultRow.from_dict({**fields, **more})
