"""Fake backend: answers from captured real lab output, so pipeline tests need no runtime or containers.

It simulates how .NET 10's ISA switches change the readback (as observed on 10.0.12), can ignore chosen switches (an
unknown switch name), fail chosen cells, and fail verification of chosen variant × dataset pairs. A paired process (a
request with members) writes every member's folder in the lab contract's samples format, with one speed factor for the
whole process (what pairing cancels) and a small deterministic jitter per burst."""

from __future__ import annotations

import copy
import json
import pathlib
import shutil

from harness.backends.base import CellRequest, CellRun
from harness.backends.fake_clock import FakeClock
from harness.backends.fake_env import captured_flags, switched_flags, switched_settings
from harness.backends.fake_files import (
    bdn_cell_files,
    cold_results,
    paired_member_files,
    process_offset,
    samples_cell_files,
    scale_report,
    shot_files,
    write_files,
)
from harness.backends.fake_listing import lab_listing, variant_entry
from harness.config.lab.labs import LabSpec
from harness.model.arch import IsaFlags
from harness.model.cells import Cell
from harness.model.errors import CellError
from harness.model.folder.environment_record import BuildWhere
from harness.model.json_value import JsonObject, JsonValue, as_object
from harness.model.outcomes import RSS_FILE, ProcessUsage
from harness.normalize import SAMPLES_FORMAT

#: Wall seconds every fake steady-state process takes unless told otherwise (on its FakeClock too).
PROCESS_S = 2.0


class FakeBackend:
    """Backend that replays a captured cell folder (tests/fixtures/dotnet-cell) for every cell; time_scale multiplies
    the captured timings per variant (or "variant@runtime", or "variant@place" for a switched place), process_spread
    gives every process its own deterministic offset (as fresh processes have), and interference adds 'other' CPU time
    to cells."""

    name = "fake"
    measures = False  # replays captured output: takes no CPU lock (harness/host/cpu_lock.py)
    emulates = False
    in_containers = False
    host_id: str | None = None

    def engine_description(self) -> str | None:
        return None

    def image_tag(self, lab: LabSpec) -> str | None:
        return None

    def __init__(
        self,
        fixture_dir: pathlib.Path,
        *,
        ignored_switches: frozenset[str] = frozenset(),
        failing_cells: frozenset[str] = frozenset(),
        failing_verification: frozenset[tuple[str, str]] = frozenset(),
        native_flags: IsaFlags | None = None,
        time_scale: dict[str, float] | None = None,
        process_spread: float = 0.0,
        interference_ms: dict[str, float | list[float]] | None = None,
        clock: FakeClock | None = None,
        process_s: float = PROCESS_S,
    ) -> None:
        self._fixture = fixture_dir
        self._ignored = ignored_switches
        self._failing_cells = failing_cells
        self._failing_verification = failing_verification
        self._time_scale = time_scale or {}
        self._spread = process_spread
        # per cell: 'other' CPU ms of each of its processes, or a list consumed one process at a time (the last repeats)
        self._interference = {
            k: list(v) if isinstance(v, (list, tuple)) else [v] for k, v in (interference_ms or {}).items()
        }
        self.clock = clock or FakeClock()
        self._process_s = process_s
        self._env = as_object(json.loads((fixture_dir / "env.json").read_text()))
        self._listing = as_object(json.loads((fixture_dir / "list.json").read_text()))
        if native_flags is not None:
            self._env["isa"] = dict(native_flags)
        self.calls: list[tuple[str, dict[str, str]]] = []
        self.cells_run: list[str] = []
        self.slots: list[list[str]] = []
        # each paired process's --member-blocks, as the lab is given them
        self.member_blocks: list[tuple[int, ...]] = []
        # the pipelined design: each slot's (warm CPU set, the slot's cell ids guessed to come next), and how often the
        # run stopped a process warming ahead
        self.handovers: list[tuple[str | None, list[str] | None]] = []
        self.warming_stopped = 0

    def flags_for(self, switches: dict[str, str]) -> IsaFlags:
        """The readback a process with these switches would report."""
        return switched_flags(captured_flags(self._env["isa"]), switches, self._ignored)

    def _scale(self, cell: Cell) -> float:
        """The cell's time scale: time_scale's "variant@runtime" entry, else its variant's, else 1."""
        scales = self._time_scale
        return scales.get(
            f"{cell.variant}@{cell.place}", scales.get(f"{cell.variant}@{cell.runtime}", scales.get(cell.variant, 1.0))
        )

    def _env_of(self, lab: LabSpec, switches: dict[str, str]) -> JsonObject:
        """The captured env, as the given build would report it: its pinned runtime version, these switches' flags and
        run settings."""
        env = copy.deepcopy(self._env)
        env["isa"] = dict(self.flags_for(switches))
        env["settings"] = dict(switched_settings(switches, self._ignored))
        env["runtime_version"] = lab.expected_version() or env["runtime_version"]
        env["runtime"] = lab.reported_runtime() or env["runtime"]  # a Node build reports Node.js, as the real one does
        env["lab"], env["language"] = lab.name, lab.language
        # a build with library versions loads those (as the real one does)
        env["libraries"] = {**as_object(env.get("libraries")), **dict(lab.build_libraries)}
        return env

    def identity(self, lab: LabSpec) -> BuildWhere:
        return {"backend": self.name}

    def details(self, lab: LabSpec) -> BuildWhere:
        return self.identity(lab)

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        log_path.write_text("fake backend: nothing to build\n")

    def build_all(self, labs: dict[str, LabSpec], log_dir: pathlib.Path) -> None:
        for name, lab in labs.items():
            self.build(lab, log_dir / f"build-{name}.log")

    def call(self, lab: LabSpec, args: list[str], switches: dict[str, str]) -> JsonValue:
        self.calls.append((args[0], dict(switches)))
        if args[0] == "env":
            return self._env_of(lab, switches)
        if args[0] == "verify":
            variant, dataset = args[args.index("--variant") + 1], args[args.index("--dataset") + 1]
            failed = (variant, dataset) in self._failing_verification
            return [
                {
                    "variant": variant,
                    "dataset": dataset,
                    "status": "failed" if failed else "passed",
                    "message": "3 field(s) differ from the dataset" if failed else "matches",
                }
            ]
        return self._listing_of(lab)

    def _listing_of(self, lab: LabSpec) -> JsonObject:
        """The captured .NET listing; another lab's variants as its catalog names them (fake_listing.py)."""
        return lab_listing(self._listing, lab)

    def _variant_of(self, lab: LabSpec, variant: str) -> JsonObject:
        """The listing's entry of a variant (its base variant's, for a variant with settings), or {}."""
        return variant_entry(self._listing_of(lab), variant)

    def run_cold(self, request: CellRequest) -> CellRun:
        """A cold cell: hyperfine-shaped JSON whose whole process takes 60 ms × the variant's time scale (± the process
        spread per run), 45 ms of it before the call; peak RSS 40 MiB."""
        cell = request.cell
        self.cells_run.append(cell.cell_id)
        request.log_path.write_text(f"fake cold run of {cell.cell_id}\n")
        usage = ProcessUsage(wall_s=1.0)
        self.clock.now += usage.wall_s
        if cell.cell_id in self._failing_cells:
            return CellRun(usage, CellError(f"simulated failure of {cell.cell_id}", f"full log: {request.log_path}"))
        cold = request.cold
        runs = cold.runs if cold else 10
        scale = self._scale(cell)
        results = cold_results(cell.cell_id, runs, scale, self._spread)
        (request.out_dir / "hyperfine.json").write_text(json.dumps({"results": results}))
        (request.out_dir / RSS_FILE).write_text(
            json.dumps({"peak_rss_bytes": [40 << 20] * (cold.rss_runs if cold else 1)})
        )
        return CellRun(usage)

    def _other_ms(self, cell_id: str) -> float:
        """The injected 'other' CPU time of this cell's next process."""
        queue = self._interference.get(cell_id)
        if not queue:
            return 0.0
        return queue.pop(0) if len(queue) > 1 else queue[0]

    def close(self) -> None:
        """Nothing is kept between cells."""

    def stop_warming(self) -> None:
        self.warming_stopped += 1

    def run_cells(self, requests: list[CellRequest]) -> list[CellRun]:
        self.slots.append([r.cell.cell_id for r in requests])
        for r in requests:
            if r.warm_cpuset:
                after = r.then() if r.then else None
                guess = [c.cell_id for c, _ in after.members] if after else None
                self.handovers.append((r.warm_cpuset, guess))
        self.member_blocks += [r.member_blocks for r in requests if r.members]
        self.clock.now += self._process_s  # the slot's processes run at the same time
        return [self._run_one(request) for request in requests]

    def _run_one(self, request: CellRequest) -> CellRun:
        if request.members:
            return self._run_paired(request)
        if request.cell.shot is not None:
            return self._run_shot(request)
        cell = request.cell
        self.cells_run.append(cell.cell_id)
        request.log_path.write_text(f"fake run of {cell.cell_id}\n")
        usage = ProcessUsage(
            wall_s=self._process_s,
            lab_cpu_s=1.9,
            cpu_other_ms=self._other_ms(cell.cell_id),
            steal_ms=0.0,
            involuntary_context_switches=3,
        )
        if cell.cell_id in self._failing_cells:
            return CellRun(usage, CellError(f"simulated failure of {cell.cell_id}", f"full log: {request.log_path}"))
        out = request.out_dir
        # The round folder name (round-3, round-3-with-X) keys the process's own offset.
        offset = process_offset(f"{cell.cell_id}/{out.name}", self._spread) if self._spread else 1.0
        scale = self._scale(cell) * offset
        variant = self._variant_of(request.lab, cell.variant)
        env = self._env_of(request.lab, request.switches)
        failed = (cell.variant, cell.dataset) in self._failing_verification
        if request.lab.raw_format == SAMPLES_FORMAT:  # a lab without BenchmarkDotNet: 1 µs per call × the scale
            times = [1000.0 * scale * (1 + 0.01 * (i % 3)) for i in range(10)]
            write_files(out, samples_cell_files(cell, variant, env, times, failed=failed))
        else:
            shutil.copytree(self._fixture / "bdn", out / "bdn", dirs_exist_ok=True)
            described = json.loads((self._fixture / "cell.json").read_text())
            scale_report(out / described["raw_report"], scale)
            write_files(out, bdn_cell_files(described, cell, variant, env, failed=failed))
        if request.peak_rss_runs:
            # the peak-RSS runs after the timed process: 30 MiB, plus 1 MiB per unit of the variant's time scale
            rss = (30 + round(self._scale(cell))) << 20
            (out / RSS_FILE).write_text(json.dumps({"peak_rss_bytes": [rss] * request.peak_rss_runs}))
        return CellRun(usage)

    def _run_shot(self, request: CellRequest) -> CellRun:
        """One single-shot process: `calls` timed calls of 1 ms × the variant's time scale (× the process's own offset),
        a resident set of 50 MiB before them and 50 + 10 × scale MiB at their peak."""
        cell, shot = request.cell, request.cell.shot
        assert shot is not None
        self.cells_run.append(cell.cell_id)
        request.log_path.write_text(f"fake single-shot run of {cell.cell_id}\n")
        usage = ProcessUsage(wall_s=self._process_s, lab_cpu_s=0.9, cpu_other_ms=self._other_ms(cell.cell_id))
        if cell.cell_id in self._failing_cells:
            return CellRun(usage, CellError(f"simulated failure of {cell.cell_id}", f"full log: {request.log_path}"))
        scale = self._scale(cell)
        offset = process_offset(f"{cell.cell_id}/{request.out_dir.name}", self._spread) if self._spread else 1.0
        variant = self._variant_of(request.lab, cell.variant)
        failed = (cell.variant, cell.dataset) in self._failing_verification
        env = self._env_of(request.lab, request.switches)
        files = shot_files(cell, shot, variant, env, scale=scale, offset=offset, failed=failed)
        write_files(request.out_dir, files)
        return CellRun(usage)

    def _run_paired(self, request: CellRequest) -> CellRun:
        """One paired process: every member measured in `burst_rounds` bursts; a failing member fails the whole
        process."""
        cells = [cell for cell, _ in request.members]
        self.cells_run.extend(c.cell_id for c in cells)
        request.log_path.write_text(f"fake paired run of {', '.join(c.cell_id for c in cells)}\n")
        usage = ProcessUsage(
            wall_s=self._process_s,
            lab_cpu_s=1.9,
            cpu_other_ms=sum(self._other_ms(c.cell_id) for c in cells),
            steal_ms=0.0,
            involuntary_context_switches=3,
        )
        failing = [c.cell_id for c in cells if c.cell_id in self._failing_cells]
        if failing:
            return CellRun(usage, CellError(f"simulated failure of {failing[0]}", f"full log: {request.log_path}"))
        base_ns = json.loads(
            (self._fixture / "bdn" / "results" / "JsonLab.Measurement.CellBenchmark-report-full.json").read_text()
        )["Benchmarks"][0]["Statistics"]["Median"]
        rounds = request.job.burst_rounds or 20
        process = process_offset(f"{request.out_dir}", self._spread) if self._spread else 1.0
        listing = self._listing_of(request.lab)
        (request.out_dir / "process.json").write_text(json.dumps({"schema_version": 1, "start_to_main_ms": 50.0}))
        for cell, folder in request.members:
            folder.mkdir(parents=True, exist_ok=True)
            scale = self._scale(cell) * process
            times = [
                base_ns * scale * process_offset(f"{cell.cell_id}/{folder}/{k}", self._spread / 4)
                for k in range(rounds)
            ]
            variant = variant_entry(listing, cell.variant)
            failed = (cell.variant, cell.dataset) in self._failing_verification
            env = self._env_of(request.lab, request.switches)
            files = paired_member_files(
                cell, [c.cell_id for c in cells], variant, env, times=times, rounds=rounds, failed=failed
            )
            write_files(folder, files)
        return CellRun(usage)
