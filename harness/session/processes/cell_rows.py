"""How the replicate loop (scheduler.py) turns one process of a cell into a result row: the row's context and the
backend request, the row once the process ended (measured, failed, or a cold-start cell's), and the row of a cell that
cannot run at its ISA level. A part of the session: it reads the run's setup (session_setup.py) and nothing else."""

from __future__ import annotations

import dataclasses
import datetime as _dt
import pathlib
from collections.abc import Callable
from dataclasses import dataclass

from harness.backends.base import CellRequest, CellRun
from harness.model.cells import Cell
from harness.model.errors import HarnessError
from harness.model.folder.environment_record import BuildWhere
from harness.model.folder.records import COLD, SINGLE_SHOT, UNAVAILABLE, ResultRow
from harness.model.folder.run_folder import LOGS_DIR, RAW_DIR
from harness.model.json_value import JsonObject
from harness.model.outcomes import CellOutcome
from harness.normalize import NORMALIZERS, SAMPLES_FORMAT
from harness.normalize.cell_files import LabFailure
from harness.normalize.common import peak_rss_bytes
from harness.normalize.hyperfine import normalize_cold_cell
from harness.planning.designs import Placement
from harness.session.processes.cold import cold_settings_readback, variant_info, verify_cold_cell
from harness.session.processes.probe import NOT_APPLICABLE, LevelProbe
from harness.session.processes.rows import RowContext, failed_row, measured_row, skipped_row
from harness.session.processes.session_setup import SessionSetup


@dataclass(frozen=True)
class RowMaker:
    """The rows of a session's processes, made from its setup."""

    setup: SessionSetup

    def level(self, cell: Cell) -> LevelProbe:
        return self.setup.probes[cell.target].levels[cell.isa_level]

    def context(
        self, placement: Placement, round_index: int, design: str | None = None, attempt: int = 1
    ) -> RowContext:
        """A row's context; a replacement process (attempt 2, 3 …) gets a raw folder and log of its own, so the
        disturbed process's stay."""
        cell = placement.cell
        suffix = (
            f"round-{round_index}"
            + (f"-with-{placement.partner}" if placement.partner else "")
            + (f"-attempt-{attempt}" if attempt > 1 else "")
        )
        return RowContext(
            self.setup.store.run_id,
            cell,
            placement.cpuset,
            self.setup.profile_name,
            self.level(cell),
            self.setup.probes[cell.target].emulated,
            self.setup.store.relative(self.setup.store.path(LOGS_DIR, f"{cell.slug}.{suffix}.log")),
            _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
            round_index=round_index,
            round_count=self.setup.stopping.max_rounds,
            design=design or self.setup.design.name,
            partner=placement.partner,
            raw_folder=suffix,
            where=self.where(cell),
        )

    def request(self, ctx: RowContext, out_dir: pathlib.Path | None = None) -> CellRequest:
        out_dir = out_dir or self.setup.store.path(RAW_DIR, ctx.cell.slug, ctx.raw_folder)
        out_dir.mkdir(parents=True, exist_ok=True)
        lab = self.setup.labs[ctx.cell.target]
        return CellRequest(
            lab,
            ctx.cell,
            self.setup.datasets_dir,
            out_dir,
            self.setup.store.path(ctx.log_path or ""),
            self.setup.job,
            # the cell's run settings, then its ISA level's switches (a lab.toml may not let the two share a variable)
            {**lab.settings_environment(ctx.cell.run_settings), **ctx.level.switches},
            ctx.cpuset,
            self.setup.cell_timeout_s,
            raw_root=self.setup.store.path(RAW_DIR),
            # a single shot reads its own resident set around its calls: no peak-RSS processes after it
            peak_rss_runs=0 if ctx.cell.measure == SINGLE_SHOT else self.setup.peak_rss_runs,
        )

    def row(self, ctx: RowContext, request: CellRequest, run: CellRun) -> ResultRow:
        ctx = dataclasses.replace(ctx, duration_s=round(run.usage.wall_s, 2), usage=run.usage)
        if run.error is not None:
            return failed_row(ctx, f"{run.error} ({run.error.hint})")
        lab = self.setup.labs[ctx.cell.target]
        # the paired verb and the shot verb write the contract's language-neutral format whatever the lab's `run` writes
        raw_format = (
            (lab.paired_format if request.members else None)
            or (SAMPLES_FORMAT if ctx.cell.measure == SINGLE_SHOT else None)
            or lab.raw_format
        )
        outcome = _normalized(lambda: NORMALIZERS[raw_format](request.out_dir), request.out_dir, lab.name)
        if isinstance(outcome, str):
            return failed_row(ctx, outcome)
        fields: JsonObject = {
            **outcome.fields,
            "raw_path": self.setup.store.relative(request.out_dir / str(outcome.fields["raw_path"])),
        }
        if fields.get("peak_rss_bytes") is None:
            fields["peak_rss_bytes"] = peak_rss_bytes(request.out_dir)  # the peak-RSS runs after the process, if any
        return measured_row(
            ctx, dataclasses.replace(outcome, fields=fields), self.setup.levels[ctx.cell.isa_level], lab.run_settings
        )

    def cold_row(self, cell: Cell) -> ResultRow:
        """One cold-start cell: verified, then timed as whole processes (one row; its runs are the replicates)."""
        ctx = dataclasses.replace(self.context(Placement(cell, self.setup.lab_cpus[0]), 1), round_count=1, design=COLD)
        request = dataclasses.replace(self.request(ctx), cold=self.setup.cold)
        verification = verify_cold_cell(self.setup.backend, request)
        run = self.setup.backend.run_cold(request)
        ctx = dataclasses.replace(ctx, duration_s=round(run.usage.wall_s, 2), usage=run.usage)
        if run.error is not None:
            return failed_row(ctx, f"{run.error} ({run.error.hint})")
        probe = self.setup.probes[cell.target]
        outcome = _normalized(
            lambda: normalize_cold_cell(
                request.out_dir, probe.env, variant_info(probe, cell.variant), verification, ctx.level.flags
            ),
            request.out_dir,
            cell.lab,
        )
        if isinstance(outcome, str):
            return failed_row(ctx, outcome)
        outcome = dataclasses.replace(
            outcome,
            fields={
                **outcome.fields,
                "raw_path": self.setup.store.relative(request.out_dir / str(outcome.fields["raw_path"])),
            },
        )
        if cell.run_settings:  # hyperfine's processes report nothing: read back in a process with their environment
            outcome = dataclasses.replace(
                outcome, settings_readback=cold_settings_readback(self.setup.backend, request)
            )
        return measured_row(ctx, outcome, self.setup.levels[cell.isa_level], request.lab.run_settings)

    def runnable(self, cell: Cell, cells: list[Cell]) -> bool:
        """A cell runs when its level took effect, or when its level is the same as native here and the run does not
        measure that benchmark at native anyway: a figure published on a CPU without AVX-512 is measured at no-avx512,
        which on a CPU (or runtime) without AVX-512 is native itself. Only a true duplicate is reported, not re-run."""
        if cell.unavailable:
            return False
        level = self.level(cell)
        if level.state == "same-as-native":
            native = dataclasses.replace(cell, isa_level="native")
            return native not in cells
        return level.runs

    def where(self, cell: Cell) -> BuildWhere:
        """The backend's identity fields of a row, and the host it ran on in a run over several hosts."""
        where = self.setup.backend.identity(self.setup.labs[cell.target]).copy()
        host = self.setup.backend.host_id
        if host:
            where["host"] = host
        return where

    def unrunnable_row(self, cell: Cell) -> ResultRow:
        level = self.level(cell)
        ctx = RowContext(
            self.setup.store.run_id,
            cell,
            self.setup.lab_cpus[0],
            self.setup.profile_name,
            level,
            self.setup.probes[cell.target].emulated,
            round_count=self.setup.stopping.max_rounds,
            design=self.setup.design.name,
            where=self.where(cell),
        )
        if cell.unavailable:
            return skipped_row(ctx, f"{UNAVAILABLE}: {cell.unavailable}")
        return (
            skipped_row(ctx, level.detail)
            if level.state in ("same-as-native", NOT_APPLICABLE)
            else failed_row(ctx, level.detail)
        )


def _normalized(normalize: Callable[[], CellOutcome], out_dir: pathlib.Path, lab: str) -> CellOutcome | str:
    """The cell's outcome, or why its raw output (untrusted: a lab's files) could not be read, naming the lab: the cell
    fails with the reason, the run goes on."""
    try:
        return normalize()
    except LabFailure as e:  # the lab's own words
        return f"{e} ({e.hint})"
    except HarnessError as e:
        return f"lab {lab}: {e} ({e.hint})"
    except (ValueError, KeyError, TypeError, ArithmeticError) as e:
        return f"lab {lab}: its raw output could not be normalized: {type(e).__name__}: {e} (raw output in {out_dir})"
