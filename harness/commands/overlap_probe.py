"""`harness overlap-probe`: would warming the next process on the harness's CPU, while this one is timed on the lab's,
cost precision or move ratios?

A paired process spends about 40% of a session before its first timed burst (runtime start, verification, the joint
warm-up). A pipelined design would do that part of process n+1 on the other CPU while process n is timed, then hand the
warm process over to the lab's CPU. Its price is interference: the warm-up is JIT compilation and benchmark loops that
share the L3 cache and memory bandwidth with the bursts they overlap. This measures that price before anything is
built for it: paired processes of stored groups on the lab's CPU, with the other CPU idle (as in every run) or running
warm-ups back to back (the load a pipeline would put there, and a little more: it never pauses), alternating ABBA.

The groups' members, job and switches come from a stored paired run's logs, read as untrusted input: only the paired
verb's own options, a runtime the .NET lab builds, and DOTNET_/COMPlus_ switches are taken; the executable is the lab's
own build. Output: RESULTS/<run-id>/rows.json (one row per process) and summary.json (per group and member: the
ratio to the baseline under each condition, its between-process log-sd, the median time). Holds both CPUs' locks.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import pathlib
import re
import shlex
import subprocess
import sys
import threading
import time

from harness.backends.host import HostBackend
from harness.config.arguments import run_id
from harness.config.isa import load_isa_table
from harness.config.lab.labs import LabSpec, load_labs
from harness.host.cpu_lock import cpus_locked
from harness.model.defaults import DATASETS_DIR, RESULTS_DIR
from harness.model.errors import HarnessError
from harness.model.stats.overlap import ProbeRow, summary

#: The paired verb's options a stored command line may carry (each takes one value); --out, --datasets and --seed are
#: the probe's own.
PAIRED_OPTIONS = frozenset(
    "--member --member-blocks --warmup-count --iteration-count --iteration-time-ms --prewarm-ms --prewarm-quiet-ms "
    "--burst-ms --burst-rounds --fresh-input-rounds --burst-collect-generation --native-anchors".split()
)
_OWN_OPTIONS = frozenset({"--out", "--datasets", "--seed"})
_GROUP_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._+-]*")
_SWITCH = re.compile(r"(DOTNET|COMPlus)_[A-Za-z0-9_]+")
#: A probe's process that runs longer than this is stopped and counted as failed.
PROCESS_TIMEOUT_S = 300.0


def add_overlap_probe_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=pathlib.Path, help="a stored paired run (its logs hold each group's process)")
    parser.add_argument("groups", help="groups timed on the lab's CPU, by their log names (comma-separated)")
    parser.add_argument("--load", required=True, help="groups whose warm-ups run on the other CPU (comma-separated)")
    parser.add_argument("--processes", type=int, default=12, help="processes per group and condition (default 12)")
    parser.add_argument("--lab-cpu", type=int, default=1)
    parser.add_argument("--load-cpu", type=int, default=0)
    parser.add_argument(
        "--run-id", type=run_id, help="the probe's folder under --results-dir (default: overlap-<UTC time>)"
    )
    parser.add_argument("--results-dir", type=pathlib.Path, default=RESULTS_DIR)


class StoredProcess:
    """One group's paired process as a stored run recorded it, checked: its build, options and switches."""

    def __init__(self, run: pathlib.Path, group: str, lab: LabSpec) -> None:
        if not _GROUP_NAME.fullmatch(group):
            raise HarnessError(f"{group!r} is not a group's log name", "pass names like 001__single__native__8.0.0")
        log = run / "logs" / f"{group}.round-1.log"
        try:
            lines = log.read_text(errors="replace").splitlines()[:2]
        except OSError as e:
            raise HarnessError(f"{log}: cannot read it ({e.strerror})", "name a group of that run: ls RUN/logs") from e
        if len(lines) < 2 or not lines[0].startswith("$ ") or not lines[1].startswith("# switches: "):
            raise HarnessError(
                f"{log}: not a paired process's log", "name a group the run measured with the paired design"
            )
        try:
            argv = shlex.split(lines[0][2:])
            switches = json.loads(lines[1][len("# switches: ") :])
        except (ValueError, json.JSONDecodeError) as e:
            raise HarnessError(f"{log}: its command line or switches do not parse ({e})", "rerun that group") from e
        self.name = group
        self.lab = lab.for_runtime(group.rsplit("__", 1)[-1])
        self.options = _paired_options(argv, log)
        if not isinstance(switches, dict) or not all(
            _SWITCH.fullmatch(str(k)) and isinstance(v, str) and len(v) < 64 for k, v in switches.items()
        ):
            raise HarnessError(f"{log}: its switches are not runtime switches", "rerun that group")
        # as the host backend builds it: stray ISA and run-setting variables of the user's shell removed
        self.environment = HostBackend(load_isa_table().all_switch_names()).environment(self.lab, switches)

    @property
    def baseline(self) -> int:
        """The baseline member: the one with an A/A copy (given twice), else the first."""
        specs = [self.options[i + 1].split("=", 1)[0] for i, arg in enumerate(self.options) if arg == "--member"]
        return next((i for i, spec in enumerate(specs) if specs.count(spec) > 1), 0)

    def command(self, out: pathlib.Path, seed: int, cpu: int, rounds: int | None = None) -> list[str]:
        """The process pinned to `cpu`, writing under `out` (member i in m<i>), with this seed and optionally rounds."""
        argv = ["taskset", "-c", str(cpu), *self.lab.command, "paired", "--datasets", str(DATASETS_DIR)]
        argv += ["--out", str(out), "--seed", str(seed)]
        member = 0
        for option, value in zip(self.options[::2], self.options[1::2]):
            if option == "--member":
                value = f"{value.split('=', 1)[0]}={out / f'm{member}'}"
                member += 1
            elif option == "--burst-rounds" and rounds is not None:
                value = str(rounds)
            argv += [option, value]
        return argv

    def run(self, out: pathlib.Path, seed: int, cpu: int) -> tuple[bool, float]:
        """One process to its end, its output in `out`/process.log: whether it ended well, and its wall time."""
        out.mkdir(parents=True, exist_ok=True)
        started = time.monotonic()
        with (out / "process.log").open("w") as log:
            try:
                done = subprocess.run(
                    self.command(out, seed, cpu),
                    cwd=self.lab.directory,
                    env=self.environment,
                    stdout=log,
                    stderr=subprocess.STDOUT,
                    timeout=PROCESS_TIMEOUT_S,
                )
            except subprocess.TimeoutExpired:
                log.write(f"\n# the probe stopped this process after {PROCESS_TIMEOUT_S:.0f} s\n")
                return False, time.monotonic() - started
        return done.returncode == 0, time.monotonic() - started


def _paired_options(argv: list[str], log: pathlib.Path) -> list[str]:
    """The paired verb's options of a recorded command line (taskset prefix, executable and the probe's own options
    dropped); anything else is refused."""
    try:
        start = argv.index("paired") + 1
    except ValueError:
        raise HarnessError(
            f"{log}: not a paired process", "name a group the run measured with the paired design"
        ) from None
    pairs = argv[start:]
    if len(pairs) % 2:
        raise HarnessError(f"{log}: an option without its value", "rerun that group")
    options: list[str] = []
    for option, value in zip(pairs[::2], pairs[1::2]):
        if option in _OWN_OPTIONS:
            continue
        if option not in PAIRED_OPTIONS or len(value) > 4096:
            raise HarnessError(f"{log}: {option!r} is not an option of the paired verb", "rerun that group")
        options += [option, value]
    return options


def overlap_probe_command(args: argparse.Namespace) -> int:
    lab = load_labs()["dotnet"]
    groups = [StoredProcess(args.run, g, lab) for g in args.groups.split(",")]
    loads = [StoredProcess(args.run, g, lab) for g in args.load.split(",")]
    if args.processes < 3 or args.lab_cpu == args.load_cpu:
        raise HarnessError("the probe needs 3 or more processes per condition, on two CPUs", "--processes 12")
    probe_id = args.run_id or "overlap-" + _dt.datetime.now(_dt.timezone.utc).strftime("%Y-%m-%dT%H-%M-%SZ")
    out = (args.results_dir / probe_id).resolve()
    rows: list[ProbeRow] = []
    with cpus_locked([args.lab_cpu, args.load_cpu], probe_id):
        for i in range(args.processes):
            for group in groups:
                for condition in ("idle", "load") if i % 2 == 0 else ("load", "idle"):
                    row = _one_process(group, condition, i, out / group.name / condition / f"p{i}", loads, args)
                    if row is not None:
                        rows.append(row)
    (out / "rows.json").write_text(json.dumps([r.__dict__ for r in rows], indent=1))
    (out / "summary.json").write_text(json.dumps(summary(rows), indent=1))
    print(out)
    return 0


def _one_process(
    group: StoredProcess,
    condition: str,
    index: int,
    out: pathlib.Path,
    loads: list[StoredProcess],
    args: argparse.Namespace,
) -> ProbeRow | None:
    """One timed process of the group, beside warm-ups (condition 'load') or an idle CPU; its row, or None."""
    load = _Load(loads, out.parent.parent.parent / "load", args.load_cpu) if condition == "load" else None
    try:
        ok, wall = group.run(out, 1000 + index, args.lab_cpu)
    finally:
        warm_ups = load.stop() if load else 0
    times = member_times(out)
    if not ok or times is None:
        print(f"{group.name} {condition} p{index}: failed, see {out}/process.log", file=sys.stderr)
        return None
    print(f"{group.name} {condition} p{index}: {wall:.1f} s, {warm_ups} warm-ups done beside it", file=sys.stderr)
    return ProbeRow.of(group.name, condition, index, wall, warm_ups, group.baseline, times)


def member_times(out: pathlib.Path) -> list[list[float]] | None:
    """Per member (in command-line order) its per-round times; None when a member wrote none."""
    times = []
    for folder in sorted(out.glob("m*"), key=lambda p: int(p.name[1:]) if p.name[1:].isdigit() else -1):
        try:
            times.append([float(t) for t in json.loads((folder / "samples.json").read_text())["iterations_ns"]])
        except (OSError, ValueError, KeyError, TypeError):
            return None
    return times or None


class _Load:
    """Warm-ups back to back on the other CPU until stopped: each load group's process with two rounds (start-up,
    verification and the joint warm-up, then almost nothing timed), cycling through the groups."""

    def __init__(self, loads: list[StoredProcess], out: pathlib.Path, cpu: int) -> None:
        self.done = 0
        self._stopping = threading.Event()
        self._current: subprocess.Popen | None = None
        self._thread = threading.Thread(target=self._loop, args=(loads, out, cpu), daemon=True)
        self._thread.start()

    def _loop(self, loads: list[StoredProcess], out: pathlib.Path, cpu: int) -> None:
        while not self._stopping.is_set():
            for k, load in enumerate(loads):
                self._current = subprocess.Popen(
                    load.command(out / f"l{k}", 7, cpu, rounds=2),
                    cwd=load.lab.directory,
                    env=load.environment,
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
                if self._stopping.is_set():
                    self._current.kill()
                if self._current.wait() == 0:
                    self.done += 1
                if self._stopping.is_set():
                    return

    def stop(self) -> int:
        """Kills the warm-up under way; how many warm-ups completed."""
        self._stopping.set()
        if self._current is not None:
            self._current.kill()
        self._thread.join()
        return self.done
