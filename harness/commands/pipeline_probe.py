"""`harness pipeline-probe`: a pipelined paired design, played on stored groups against the paired design as it runs.

Per group, blocks of K processes alternate between two conditions: `plain`, K processes one after the other on the
lab's CPU (the paired design); `pipelined`, each process started, verified and warmed on the other CPU with the paired
verb's `--handoff 1`, and once the process before it has ended, every thread of it moved to the lab's CPU
(`taskset -a -p`), told `go`, and the next one started warming on the other CPU at once. What it reads: the processes
per minute of machine time under each condition (a block's wall time), and, as the overlap probe does, each member's
ratio to the baseline, its between-process spread and its median time; with each pipelined process's wait for its
hand-over, its re-warm and the JIT compilations during its rounds (process.json). Host backend only; the groups come
from a stored paired run's logs, checked as the overlap probe checks them. Holds both CPUs' locks.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import pathlib
import subprocess
import sys
import time

from harness.backends.warm_lines import WARM_LINE_BYTES, parse_started_line, parse_warm_line
from harness.commands.overlap_probe import PROCESS_TIMEOUT_S, StoredProcess, member_times
from harness.config.arguments import run_id
from harness.config.lab.labs import load_labs
from harness.host.cpu_lock import cpus_locked
from harness.model.defaults import RESULTS_DIR
from harness.model.errors import CellError, HarnessError
from harness.model.folder.lab_files import read_process
from harness.model.stats.overlap import ProbeRow, summary
from harness.planning.pinning import move_process

CONDITIONS = ("plain", "pipelined")


def add_pipeline_probe_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=pathlib.Path, help="a stored paired run (its logs hold each group's process)")
    parser.add_argument("groups", help="groups to play, by their log names (comma-separated)")
    parser.add_argument("--blocks", type=int, default=4, help="blocks per group and condition (default 4)")
    parser.add_argument("--block-processes", type=int, default=4, help="processes per block (default 4)")
    parser.add_argument("--lab-cpu", type=int, default=1)
    parser.add_argument("--warm-cpu", type=int, default=0, help="where pipelined processes warm (default 0)")
    parser.add_argument(
        "--run-id", type=run_id, help="the probe's folder under --results-dir (default: pipeline-<UTC time>)"
    )
    parser.add_argument("--results-dir", type=pathlib.Path, default=RESULTS_DIR)


def pipeline_probe_command(args: argparse.Namespace) -> int:
    lab = load_labs()["dotnet"]
    groups = [StoredProcess(args.run, g, lab) for g in args.groups.split(",")]
    if args.blocks < 1 or args.block_processes < 2 or args.blocks * args.block_processes < 3:
        raise HarnessError("the probe needs blocks of 2 or more processes, 3 or more per condition", "--blocks 4")
    if args.lab_cpu == args.warm_cpu:
        raise HarnessError("the pipeline needs two CPUs", "pass --lab-cpu and --warm-cpu apart")
    probe_id = args.run_id or "pipeline-" + _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    out = (args.results_dir / probe_id).resolve()
    rows: list[ProbeRow] = []
    blocks: list[dict] = []
    with cpus_locked([args.lab_cpu, args.warm_cpu], probe_id):
        for b in range(args.blocks):
            for group in groups:
                for condition in CONDITIONS if b % 2 == 0 else CONDITIONS[::-1]:
                    play = _pipelined_block if condition == "pipelined" else _plain_block
                    first = b * args.block_processes
                    folders = [out / group.name / condition / f"p{first + k}" for k in range(args.block_processes)]
                    walls, lab_s = play(group, folders, first, args)
                    made = [_row(group, condition, first + k, folder, walls[k]) for k, folder in enumerate(folders)]
                    rows += [r for r in made if r is not None]
                    blocks.append(
                        {
                            "group": group.name,
                            "condition": condition,
                            "block": b,
                            "processes": len(folders),
                            "lab_s": lab_s,
                        }
                    )
                    print(
                        f"{group.name} {condition} block {b}: {len(folders)} processes, {lab_s:.1f} s", file=sys.stderr
                    )
    (out / "rows.json").write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    (out / "blocks.json").write_text(json.dumps(blocks, indent=1))
    (out / "summary.json").write_text(json.dumps(summary(rows, CONDITIONS) + _throughput(blocks), indent=1))
    print(out)
    return 0


def _plain_block(
    group: StoredProcess, folders: list[pathlib.Path], first: int, args: argparse.Namespace
) -> tuple[list[float], float]:
    """The paired design: one process after the other on the lab's CPU; each one's wall time, and the block's."""
    walls = [group.run(folder, 1000 + first + k, args.lab_cpu)[1] for k, folder in enumerate(folders)]
    return walls, sum(walls)


def _pipelined_block(
    group: StoredProcess, folders: list[pathlib.Path], first: int, args: argparse.Namespace
) -> tuple[list[float], float]:
    """Each process warmed on the other CPU while the one before it is timed, then handed over; each one's time on the
    lab's CPU (from its hand-over to its end), and the lab CPU's time from the first hand-over to the last end (what a
    run that keeps the pipeline full spends per process; the first warm-up, the pipeline's filling, left out)."""
    walls = []
    first_move = None
    warming = _start_warm(group, folders[0], 1000 + first, args.warm_cpu)
    for k in range(len(folders)):
        current = warming
        pid = _await_warm(current, folders[k])
        moved = time.monotonic()
        first_move = first_move or moved
        move_process([], pid, str(args.lab_cpu))
        assert current.stdin is not None
        current.stdin.write("go\n")
        current.stdin.flush()
        if k + 1 < len(folders):
            warming = _start_warm(group, folders[k + 1], 1000 + first + k + 1, args.warm_cpu)
        try:
            current.wait(timeout=PROCESS_TIMEOUT_S)
        except subprocess.TimeoutExpired:
            current.kill()
            warming.kill()
            raise HarnessError(
                f"a pipelined process ran over {PROCESS_TIMEOUT_S:.0f} s", f"see {folders[k]}/process.log"
            ) from None
        walls.append(time.monotonic() - moved)
    return walls, time.monotonic() - (first_move or time.monotonic())


def _start_warm(group: StoredProcess, folder: pathlib.Path, seed: int, cpu: int) -> subprocess.Popen:
    folder.mkdir(parents=True, exist_ok=True)
    with (folder / "process.log").open("w") as log:
        return subprocess.Popen(
            [*group.command(folder, seed, cpu), "--handoff", "1"],
            cwd=group.lab.directory,
            env=group.environment,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=log,
            text=True,
        )


def _await_warm(process: subprocess.Popen, folder: pathlib.Path) -> int:
    """The warm process's id from its line on standard output; an error naming its log if it ends first."""
    assert process.stdout is not None
    said = process.stdout.readline(WARM_LINE_BYTES)
    if parse_started_line(said) is not None:  # the paired verb says its id as it starts, then its warm line
        said = process.stdout.readline(WARM_LINE_BYTES)
    line = parse_warm_line(said)
    if line is None:
        process.kill()
        raise HarnessError(
            f"a pipelined process ended or spoke before it was warm: {said.strip()!r}", f"see {folder}/process.log"
        )
    return line.pid


def _row(group: StoredProcess, condition: str, index: int, folder: pathlib.Path, wall: float) -> ProbeRow | None:
    times = member_times(folder)
    if times is None:
        print(f"{group.name} {condition} p{index}: failed, see {folder}/process.log", file=sys.stderr)
        return None
    try:
        process = read_process(folder)
    except CellError:  # a process.json that does not fit its record: its timings unknown, the row kept
        process = None
    timings = {
        key: getattr(process, key, None)
        for key in ("joint_prewarm_ms", "handover_wait_ms", "rewarm_ms", "bursts_ms", "rounds_compilations")
    }
    return ProbeRow.of(group.name, condition, index, wall, 0, group.baseline, times, timings)


def _throughput(blocks: list[dict]) -> list[dict]:
    """Per group and condition: processes per minute of the lab CPU's time."""
    out = []
    for group in sorted({b["group"] for b in blocks}):
        rates = {}
        for condition in CONDITIONS:
            picked = [b for b in blocks if (b["group"], b["condition"]) == (group, condition)]
            seconds = sum(b["lab_s"] for b in picked)
            rates[condition] = 60 * sum(b["processes"] for b in picked) / seconds if seconds > 0 else None
        out.append({"group": group, "processes_per_minute": rates})
    return out
