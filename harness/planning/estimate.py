"""An up-front estimate of a run's machine time, from the job of one replicate and the stopping rule."""

from __future__ import annotations

from dataclasses import dataclass, field

from harness.config.experiment.profiles import Stopping
from harness.model.cells import Cell, ColdSettings, JobSettings
from harness.planning.designs import Design, layout
from harness.planning.history import CostHistory

#: Seconds a lab process spends outside its prewarm and BenchmarkDotNet's iterations: runtime start, dataset load,
#: verification, BenchmarkDotNet's jitting, overhead and memory stages, forced collections, export, exit
#: (measured here: 0.7–0.9 s; README "Where the time goes").
PROCESS_OVERHEAD_S = 0.8

#: Pilot iterations BenchmarkDotNet typically runs before it fixes the invocation count (none when the lab sizes
#: iterations from its prewarm).
PILOT_ITERATIONS = 5

#: Typical prewarm until the JIT is quiet, for the libraries here (0.3–1.1 s measured; the cap bounds it).
QUIET_PREWARM_S = 0.8

#: Iterations run about this much longer than their target time (the invocation count is rounded up from the prewarm).
ITERATION_SLACK = 1.1


#: A cold-start process of the .NET lab (start, dataset, one call, exit), and the `verify` call before a cold cell
#: (a default run's 20 cold cells took 3.8 s each in containers: 0.06 s per process after the verify).
COLD_PROCESS_S = 0.08
COLD_VERIFY_S = 1.0


#: A paired process (the `paired` verb): its start, environment probe, joint warm-up of all members until the JIT is
# quiet
#: and exit (1.8 s measured here with prewarm_quiet_ms 300, for 2 to 6 members: their tier-ups overlap), and per member
#: its verification, first calls and overhead-twin bursts (0.15 s), then its bursts, each after a full collection (a
#: few percent of a 20 ms burst). Probe of 2026-11-24 on .NET 8: 2.65 s for 2 members, 3.26 s for 3, 4.34 s for 6, at
#: 15 rounds of 20 ms.
PAIRED_PROCESS_OVERHEAD_S = 1.8
PAIRED_MEMBER_S = 0.15
BURST_SLACK = 1.05


def paired_process_seconds(job: JobSettings, cells: int) -> float | None:
    """Estimated wall time of one paired process measuring `cells` cells; None when the job sets no bursts."""
    if job.burst_ms is None or job.burst_rounds is None:
        return None
    return PAIRED_PROCESS_OVERHEAD_S + cells * (PAIRED_MEMBER_S + job.burst_rounds * job.burst_ms / 1000 * BURST_SLACK)


def processes_seconds(job: JobSettings, cells_per_process: list[int]) -> float | None:
    """Estimated wall time of a round's processes, each measuring the given number of cells (1: the `run` verb)."""
    total = 0.0
    for cells in cells_per_process:
        one = paired_process_seconds(job, cells) if cells > 1 else process_seconds(job)
        if one is None:
            return None
        total += one
    return total


def modelled_round_seconds(job: JobSettings, cells: int, peak_rss_runs: int = 0) -> float | None:
    """One round of `cells` single-cell processes by the job's model, each followed by `peak_rss_runs` cold
    processes reading its peak RSS; None when the job leaves counts to BenchmarkDotNet."""
    one = process_seconds(job)
    return None if one is None else cells * (one + peak_rss_runs * COLD_PROCESS_S)


def round_seconds(design: Design, cells: list[Cell], job: JobSettings, can_share: bool) -> float:
    """Estimated wall time of one round of a unit's cells under a design (harness/planning/designs.py layout); a job
    whose
    duration is unknown up front counts its processes at UNKNOWN_PROCESS_S."""
    _, slots = layout(design, cells, 1, ("0", "1"), can_share)
    sizes = [len(p.cells) for slot in slots for p in slot[:1]]
    return processes_seconds(job, sizes) or UNKNOWN_PROCESS_S * len(sizes)


def learned_round_seconds(
    cell_ids: list[str], modelled_s: float | None, history: CostHistory | None, lab_cpus: int = 1
) -> float | None:
    """One round of these cells with each cell's learned cost (harness/planning/history.py: wall seconds on the
    run's timeline, so `lab_cpus` processes side by side are already in it) in place of its modelled share; the cells
    the history does not know keep their share of `modelled_s` (one round of all of them on one CPU). None when
    neither is known."""
    if history is None:
        return modelled_s
    known = history.known(cell_ids)
    if not known:
        return modelled_s
    learned = lab_cpus * sum(history.seconds[c] for c in known)
    if len(known) == len(cell_ids):
        return learned
    if modelled_s is None:
        modelled_s = UNKNOWN_PROCESS_S * len(cell_ids)
    return learned + modelled_s * (len(cell_ids) - len(known)) / len(cell_ids)


#: Seconds per process assumed when the job leaves counts to BenchmarkDotNet (no estimate up front).
UNKNOWN_PROCESS_S = 5.0

#: BenchmarkDotNet's automatic job (EngineResolver in 0.15): iterations of 500 ms, 6 to 50 of warm-up and 15 to 100
#: measured, as its stopping criteria decide per process, after a pilot stage of about a second.
AUTO_ITERATION_S = 0.5
AUTO_WARMUP = (6, 50)
AUTO_MEASURED = (15, 100)
AUTO_PILOT_S = 1.0


def automatic_process_bounds() -> tuple[float, float]:
    """The shortest and longest wall time of one process of BenchmarkDotNet's automatic job."""
    return tuple(  # type: ignore[return-value]
        PROCESS_OVERHEAD_S + AUTO_PILOT_S + (warmup + measured) * AUTO_ITERATION_S
        for warmup, measured in zip(AUTO_WARMUP, AUTO_MEASURED)
    )


def format_duration(minutes: float) -> str:
    """'40 min', '7.5 h' or '4.3 days': a duration in the unit a reader plans with."""
    if minutes < 120:
        return f"{minutes:.0f} min"
    if minutes < 48 * 60:
        return f"{minutes / 60:.1f} h"
    return f"{minutes / 60 / 24:.1f} days"


def cold_cell_seconds(cold: ColdSettings) -> float:
    """One cold cell: verification, each command once, hyperfine's warm-up and timed runs of both, the RSS runs."""
    return COLD_VERIFY_S + COLD_PROCESS_S * (2 * (1 + cold.warmup + cold.runs) + cold.rss_runs)


def process_seconds(job: JobSettings) -> float | None:
    """Estimated wall time of one replicate process; None when the job leaves counts to BenchmarkDotNet."""
    warmup, measured, iteration_ms = job.warmup_count, job.iteration_count, job.iteration_time_ms
    if warmup is None or measured is None or iteration_ms is None:
        return None
    prewarm_s = (job.prewarm_ms or 0) / 1000
    if job.prewarm_quiet_ms:
        prewarm_s = min(prewarm_s, QUIET_PREWARM_S)
    pilot = 0 if job.prewarm_ms or job.invocation_count else PILOT_ITERATIONS
    iterations = pilot + warmup + measured
    return PROCESS_OVERHEAD_S + prewarm_s + iterations * iteration_ms / 1000 * ITERATION_SLACK


def describe_estimate(
    job: JobSettings,
    stopping: Stopping,
    cells: int,
    groups: int,
    lab_cpus: int = 1,
    cold_cells: int = 0,
    cold: ColdSettings = ColdSettings(),
    round_s: float | None = None,
    peak_rss_runs: int = 0,
    budget_min: float | None = None,
    fixed_s: float = 0.0,
    after_s: float = 0.0,
) -> str:
    """'about 12–40 min (3–20 rounds)' or what is known when the job is BenchmarkDotNet's automatic one. `cells` are the
    steady-state cells; cold-start cells add a fixed time each. `round_s`, when given, is one round of every group (the
    paired design, whose processes measure several cells); else a round is one process per cell, each followed by
    `peak_rss_runs` cold processes reading its peak RSS. `fixed_s`: time once per run (preparing the labs: builds and
    probes), before a budget starts; `after_s`: what `just run-all` does after the session (conformance pass, report),
    after it."""
    cold_s = cold_cells * cold_cell_seconds(cold) + fixed_s
    rounds = f"{stopping.min_rounds}" if not stopping.adaptive else f"{stopping.min_rounds}–{stopping.max_rounds}"
    if round_s is None:
        round_s = modelled_round_seconds(job, cells, peak_rss_runs)
    if round_s is None:
        return _automatic_estimate(stopping, cells, lab_cpus, cold_s, after_s, rounds)
    per_process = round_s / max(cells, 1)  # a cell's share of a round
    low = stopping.min_rounds * round_s / lab_cpus + cold_s
    high = stopping.max_rounds * round_s / lab_cpus + cold_s
    caps = [
        c
        for c in (
            None if stopping.group_time_cap_s is None else groups * stopping.group_time_cap_s,
            None if stopping.cell_time_cap_s is None else cells * stopping.cell_time_cap_s,
        )
        if c is not None
    ]
    if caps:
        # A group stops at the first round that ends past its cap: allow one more round of every cell.
        high = min(high, max(low, min(caps) + cells * per_process / lab_cpus + cold_s))
    if budget_min is not None:
        budget_min += (after_s + fixed_s) / 60
    low, high = low + after_s, high + after_s
    text = f"about {low / 60:.0f} min at {stopping.min_rounds} round(s)"
    if budget_min is not None and stopping.adaptive:
        # The scheduler adds rounds while the budget holds and a group still wants them: a budgeted run takes its
        # budget unless every group reaches its target or cap sooner (the default: 56.7 and 56.6 min of a 57-minute
        # budget in runs 2026-11-25T22-37-24Z and 2026-11-25T23-35-33Z).
        expected = min(high / 60, max(budget_min, low / 60))
        text = f"about {expected:.0f} min (its budget, unless every group is done sooner); {text}"
    if stopping.adaptive:
        assert stopping.target_rel_ci is not None  # an adaptive rule has a target (Stopping.adaptive)
        target = 100 * stopping.target_rel_ci
        text += f", at most {high / 60:.0f} min if every group needs its caps ({rounds} rounds, target ±{target:.1f}%)"
    return text


def _automatic_estimate(
    stopping: Stopping, cells: int, lab_cpus: int, cold_s: float, after_s: float, rounds: str
) -> str:
    """describe_estimate when the job is BenchmarkDotNet's automatic one: a range from the fastest and slowest process
    its automatic iteration counts allow, at `rounds` round(s)."""
    low_s, high_s = (cells * stopping.min_rounds * s / lab_cpus + cold_s + after_s for s in automatic_process_bounds())
    fastest, slowest = automatic_process_bounds()
    return (
        f"about {format_duration(low_s / 60)} to {format_duration(high_s / 60)} at {rounds} round(s): "
        f"BenchmarkDotNet's automatic job decides its iteration counts in each process ({AUTO_WARMUP[0]}–"
        f"{AUTO_WARMUP[1]} warm-up and {AUTO_MEASURED[0]}–{AUTO_MEASURED[1]} measured iterations of "
        f"{AUTO_ITERATION_S:g} s: {fastest:.0f}–{slowest:.0f} s a process)"
    )


#: A single-shot process (the `shot` verb) apart from its input: runtime start, the environment probe, the warm-up on a
#: tiny document, exit. Per byte of input, what it does besides its timed calls: read and decode the file, hash it, and
#: after the calls verify (one more call and a walk of its result against the file's parse). A call's own cost per byte
#: comes from an earlier run's single-shot rows of the same variant and operation where one exists (ShotCosts.rates),
#: else DEFAULT_CALL_NS_PER_BYTE. Measured here (2026-11-26, `taskset -c 1 … shot --dataset coordinates`, two processes
#: each, 115 MB): System.Text.Json 5.1–5.3 s a process (call 5.2 ns/B), Newtonsoft.Json 7.3–7.7 s (9.9 ns/B), Node's
#: JSON.parse 5.3–5.4 s (4.4 ns/B); reading the file 0.16–0.46 s, verifying 3.8–5.7 s. The model gives 5.7, 6.8 and
#: 5.5 s with the learned rates, 6.3 s for each without.
SHOT_PROCESS_S = 0.35
SHOT_NS_PER_INPUT_BYTE = 36.0
DEFAULT_CALL_NS_PER_BYTE = 8.0


@dataclass(frozen=True)
class ShotCosts:
    """What a single-shot process costs up front: its input's size (the manifest's `bytes`) and its variant's call cost
    per byte (learned: harness/planning/history.py load_call_rates)."""

    payload_bytes: dict[str, int] = field(default_factory=dict)
    # (lab, variant, operation, runtime) → ns per byte; runtime "*": over every runtime the variant ran on
    rates: dict[tuple[str, str, str, str], float] = field(default_factory=dict)

    def rate(self, cell: Cell) -> float | None:
        """The learned call cost per byte of this cell's variant on its runtime, else on any runtime; None unknown."""
        for where in (cell.place, cell.runtime, "*"):  # its own place, its runtime's build, any runtime
            rate = self.rates.get((cell.lab, cell.variant, cell.operation, where))
            if rate is not None:
                return rate
        return None

    def process_seconds(self, cell: Cell) -> float:
        """One single-shot process of this cell."""
        size = self.payload_bytes.get(cell.dataset, 0)
        calls = cell.shot.calls if cell.shot is not None else 1
        rate = self.rate(cell)
        rate = DEFAULT_CALL_NS_PER_BYTE if rate is None else rate
        return SHOT_PROCESS_S + size * (SHOT_NS_PER_INPUT_BYTE + (calls + 1) * rate) / 1e9

    def learned(self, cell: Cell) -> bool:
        """True when the call cost of this cell's variant was learned from an earlier run."""
        return self.rate(cell) is not None
