"""The experiment files a run is judged against: the copy its run folder kept when it started (`experiments/`,
harness/session/runner.py), so a report rendered later judges what was run. A run folder without that copy (made
before runs kept one, or copied without it), or whose copy lacks an experiment it measured, is judged against this
checkout's experiments/ and the report says so in its first lines; an experiment found in neither is named, its cells
shown and its published figures not judged."""

from __future__ import annotations

import pathlib
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from harness.config.experiment.experiments import load_experiments
from harness.model.experiment import Experiment
from harness.model.folder.run_folder import KEPT_EXPERIMENTS_DIR


@dataclass(frozen=True)
class RunExperiments:
    """The experiments by id, and what the report says of where they came from ('' when from the run's own copy)."""

    by_id: dict[str, Experiment]
    note: str = ""


def kept_experiments_dir(run_dir: pathlib.Path) -> pathlib.Path | None:
    """The run folder's copy of its experiment files; None when it kept none."""
    kept = run_dir / KEPT_EXPERIMENTS_DIR
    return kept if kept.is_dir() and any(kept.glob("*.toml")) else None


def run_experiments(
    run_dirs: Sequence[pathlib.Path], measured: Collection[str], experiments_dir: pathlib.Path | None = None
) -> RunExperiments:
    """The experiments `measured` (ids) are judged against: `experiments_dir` when a caller gives one, else the copies
    the run folders kept (the first that holds an experiment), then this checkout's for the rest, said in `note`."""
    if experiments_dir is not None:
        return RunExperiments(load_experiments(experiments_dir))
    by_id: dict[str, Experiment] = {}
    kept = [d for d in map(kept_experiments_dir, run_dirs) if d is not None]
    for folder in kept:
        by_id.update({k: e for k, e in load_experiments(folder).items() if k not in by_id})
    lacking = sorted(set(measured) - set(by_id))
    if not lacking:
        return RunExperiments(by_id)
    checkout = load_experiments()
    from_checkout = [i for i in lacking if i in checkout]
    by_id.update({i: checkout[i] for i in from_checkout})
    return RunExperiments(by_id, _note(bool(kept), len(run_dirs), from_checkout, sorted(set(lacking) - set(checkout))))


def _note(kept: bool, folders: int, from_checkout: list[str], nowhere: list[str]) -> str:
    """What the report says of experiments not judged against the run's own copy."""
    parts = []
    if from_checkout and not kept:
        whose = "The run folder keeps no copy" if folders == 1 else "No host's run folder keeps a copy"
        parts.append(
            f"{whose} of the experiment files it measured (`{KEPT_EXPERIMENTS_DIR}/`: made before runs kept one, or "
            "copied without it), so the published figures are judged against this checkout's "
            f"`experiments/` ({', '.join(from_checkout)}), which may have changed since the run."
        )
    elif from_checkout:
        parts.append(
            f"The run's copy of its experiment files (`{KEPT_EXPERIMENTS_DIR}/`) lacks {', '.join(from_checkout)}: "
            "judged against this checkout's `experiments/`, which may have changed since it ran."
        )
    if nowhere:
        parts.append(
            f"Experiment {', '.join(nowhere)} is in neither the run's experiment files nor this checkout's: its cells "
            "are listed, its published figures are not judged (restore the run folder's `experiments/` to judge "
            "them)."
        )
    return " ".join(parts)
