"""The report's title block: run id, commit, host, design and budget, and the notes a reader needs before anything
else (nothing measured, a build that failed, a torn line left out, experiment files not the run's own)."""

from __future__ import annotations

import pandas as pd

from analysis.sections.inputs import ReportInputs
from harness.model.folder.environment_record import EnvironmentRecord
from harness.model.folder.records import BUILD_FAILED
from harness.model.folder.run_folder import RESULTS_FILE
from harness.model.folder.run_records import RunRecord


def header_markdown(env: EnvironmentRecord | None, run: RunRecord, cells: pd.DataFrame) -> str:
    """Title and one paragraph saying where, when, on what and with what this was measured."""
    title = f"# JSON serializer lab report — run {run.run_id}\n\n"
    if env is None:
        return (
            title
            + f"The run folder has no environment.json: host, runtimes and commit unknown. Profile `{run.profile}`.\n"
        )
    runtimes = "; ".join(
        f"lab {name}: {lab.runtime_description}, " + ", ".join(f"{k} {v}" for k, v in lab.libraries.items())
        for name, lab in env.labs.items()
    )
    dirty = " (uncommitted changes)" if env.git_dirty else ""
    return (
        title + f"Measured {env.captured_at} on **{env.cpu_model or '?'}** ({env.logical_cpus} logical CPUs, "
        f"{env.machine}, {'virtual machine' if env.hypervisor else 'bare metal or undetected VM'}), "
        f"{env.os or '?'}, kernel {env.kernel}. {runtimes}. Profile `{run.profile}`; "
        f"each cell ran in a fresh process pinned to CPU {env.lab_cpuset} ({env.backend} backend)"
        f"{_warmed(env)}. Lab commit `{(env.git_commit or '?')[:12]}`{dirty}.\n"
    )


def _warmed(env: EnvironmentRecord) -> str:
    """Where the paired-pipelined design warmed each process, or why the run played another design than its
    profile's (harness/planning/warm_cpus.py); nothing for a run of neither."""
    warm = ", ".join(str(cpu) for cpu in env.warm_cpus)
    where = f", started, verified and warmed on CPU {warm} before it was handed over" if warm else ""
    return where + (f". **Design**: {env.design_note}" if env.design_note else "")


def header_notes(inputs: ReportInputs) -> str:
    """The notes under the first paragraph: a run with no row says it measured nothing and what to do; a torn last
    line left out (analysis/compute/load.py); experiment files other than the run's own copy
    (analysis/compute/run_experiments.py)."""
    notes = []
    if inputs.rows.empty and inputs.cold.empty:
        notes.append(nothing_measured(inputs.run, bool(inputs.set_aside)))
    if (failed := failed_builds(inputs.rows)) is not None:
        notes.append(failed)
    if inputs.set_aside:
        notes.append(f"**Set aside**: {inputs.set_aside}.")
    if inputs.experiments_note:
        notes.append(f"**Experiment files**: {inputs.experiments_note}")
    return "".join(f"\n{note}\n" for note in notes)


def failed_builds(rows: pd.DataFrame) -> str | None:
    """The lab builds that did not build (harness/session/build_isolation.py): each with its cells, now void, its first
    error and its log; None when every build built."""
    if rows.empty or "error" not in rows:
        return None
    failed = rows[rows["error"].fillna("").astype(str).str.startswith(BUILD_FAILED)]
    if failed.empty:
        return None
    said = []
    for (lab, runtime), part in failed.groupby(["lab", "runtime_requested"], sort=True):
        first = str(part["error"].iloc[0])
        log = str(part["log_path"].iloc[0]) if "log_path" in part and pd.notna(part["log_path"].iloc[0]) else None
        cut = first if len(first) <= 240 else first[:239] + "…"
        said.append(
            f"lab {lab} on {runtime}: {part['benchmark'].nunique()} cells void ({cut}"
            + (f"; log `{log}`" if log else "")
            + ")"
        )
    return (
        "**Builds that failed**: "
        + "; ".join(said)
        + ". Every other build was built and measured; the Failed cells table lists each cell."
    )


def nothing_measured(run: RunRecord, torn: bool) -> str:
    """Why a run's report has no cell, and the commands that measure it."""
    profile = run.profile if run.profile != "?" else "<profile>"
    holds = "only a torn line (below)" if torn else "no result row"
    return (
        f"**Nothing measured**: `{RESULTS_FILE}` holds {holds}, so this report has no cell, ratio or verdict. The run "
        "stopped before its first process finished (its `logs/` say why), or its selection planned no cell. Measure "
        f"what it planned with `just resume {profile} --run-id {run.run_id}`, or start again with "
        f"`just run-all {profile}`."
    )
