"""Timing a cold-start cell: each command once (a variant that cannot run fails with the lab's own message), then
`hyperfine -N` over the `once` and `--prepare-only` commands on the lab CPU, then the peak-RSS runs the lab reports
itself. The backend says how a command is run (on this host or in its container); this module says which commands."""

from __future__ import annotations

import json
import shlex
import subprocess
from typing import Callable

from harness.backends.base import CellRequest, CellRun, last_lab_error
from harness.model.cells import ColdSettings
from harness.model.outcomes import RSS_FILE


def time_cold(
    request: CellRequest,
    settings: ColdSettings,
    once: list[str],
    prepare: list[str],
    run: Callable[[list[str], float], subprocess.CompletedProcess[str]],
    failed: Callable[[str, str], CellRun],
) -> CellRun | None:
    """A cold cell's steps (LabProcesses.run_cold): each command once, hyperfine over both, then the peak-RSS runs;
    a failed CellRun, or None."""
    # Each command once first: a variant that cannot run here fails its cell with the lab's own message.
    for command in (once, prepare):
        done = run(command, request.timeout_s)
        if done.returncode != 0:
            found = last_lab_error(done.stderr)
            return failed(
                found[0] if found else f"lab exited with code {done.returncode}",
                found[1] if found and found[1] else "run the command by hand",
            )
    # hyperfine runs on the lab CPU (its children inherit the affinity) and starts each process itself (-N: no
    # shell).
    hyperfine = [
        "hyperfine",
        "-N",
        "--style",
        "basic",
        "--warmup",
        str(settings.warmup),
        "--runs",
        str(settings.runs),
        "--export-json",
        str(request.out_dir / "hyperfine.json"),
        "--command-name",
        "once",
        shlex.join(once),
        "--command-name",
        "prepare-only",
        shlex.join(prepare),
    ]
    timed: subprocess.CompletedProcess[str] | None
    try:
        timed = run(hyperfine, request.timeout_s * (settings.warmup + settings.runs))
    except FileNotFoundError:
        timed = None
    if timed is None or timed.returncode == 127 or "hyperfine: not found" in timed.stderr:
        return failed(
            "hyperfine is not installed where the lab runs, so cold starts cannot be timed",
            "install it (apt-get install hyperfine; the lab images carry it) and resume the run",
        )
    if timed.returncode != 0:
        return failed(
            f"hyperfine exited with code {timed.returncode}: "
            f"{(timed.stderr.strip().splitlines() or ['no output'])[-1]}",
            "see the log",
        )
    error = read_peak_rss(request, settings.rss_runs, once, run)
    return failed(error, "see the log") if error else None


def read_peak_rss(
    request: CellRequest,
    runs: int,
    once: list[str],
    run: Callable[[list[str], float], subprocess.CompletedProcess[str]],
) -> str | None:
    """`runs` fresh processes of the cell's `once` command, each reporting its own peak RSS, into out_dir/rss.json;
    an error message, or None. Peak RSS: hyperfine 1.15 does not record memory, and wait4's ru_maxrss of a child of
    this (large) process includes the harness's own peak (Linux carries it across exec), so the lab reports its VmHWM
    itself (the lab contract's `once --report-rss true`)."""
    rss, cpus = [], []
    for _ in range(runs):
        done = run([*once, "--report-rss", "true"], request.timeout_s)
        reported = dict(line.split(" ", 1) for line in done.stdout.splitlines() if " " in line)
        if done.returncode != 0 or "peak_rss_bytes" not in reported:
            return f"the peak-RSS run exited with code {done.returncode} and reported no peak_rss_bytes"
        rss.append(int(reported["peak_rss_bytes"]))
        cpus.append(reported.get("cpus_allowed"))
    (request.out_dir / RSS_FILE).write_text(json.dumps({"peak_rss_bytes": rss, "cpus_allowed": cpus}) + "\n")
    return None
