"""A lab build that fails is a verdict for its own cells, not the run's end.

The run's builds (one per lab, runtime and library-version build: plan.labs) are made together first, as the backend
makes them best (one Buildx bake, say); when that fails and there is more than one, each is built alone, so the ones
that build are kept. The cells of a build that failed get one failed row each, `build failed: <the first cause> (log
…)`, which the report shows as "void: build failed: …" for their figures, and every other cell is probed and
measured. A run none of whose builds succeeds stops with the first build's error, as before."""

from __future__ import annotations

import pathlib
from collections.abc import Callable

from harness.backends.base import Backend
from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell
from harness.model.errors import HarnessError
from harness.model.folder.records import BUILD_FAILED, ResultRow
from harness.model.folder.run_folder import LOGS_DIR
from harness.session.processes.probe import LevelProbe
from harness.session.processes.rows import RowContext, failed_row

#: The level state of a cell whose lab build failed: never probed.
NOT_BUILT = "not-built"


def build_isolated(
    backend: Backend, labs: dict[str, LabSpec], log_dir: pathlib.Path, say: Callable[[str], None]
) -> dict[str, str]:
    """Builds every lab build; returns the ones that failed, target → "build failed: <cause> (<fix>; log …)"."""
    try:
        backend.build_all(labs, log_dir)
        return {}
    except HarnessError as together:
        if len(labs) == 1:
            raise
        say(f"builds: together they failed ({str(together).splitlines()[0]}); building each alone")
    failed: dict[str, str] = {}
    for target, lab in labs.items():
        log = log_dir / build_log_name(target)
        try:
            backend.build(lab, log)
        except HarnessError as e:
            cause = str(e).splitlines()[0]
            failed[target] = f"{BUILD_FAILED}: {cause} ({e.hint})" if e.hint else f"{BUILD_FAILED}: {cause}"
            say(f"builds: {target} did not build, its cells are void: {cause}")
    if len(failed) == len(labs):
        raise HarnessError(
            f"no lab build of this run could be built: {next(iter(failed.values()))}",
            f"the logs in {log_dir} say why each failed",
        )
    return failed


def build_log_name(target: str) -> str:
    """A lab build's log in the run's logs/, as the host backend names it."""
    return f"build-{target}.log"


def unbuilt_rows(
    run_id: str, cells: list[Cell], failed: dict[str, str], profile: str, design: str, cpuset: str
) -> list[ResultRow]:
    """One failed row per cell of a build that failed, with the build's cause: no process ran, so no level was probed
    and no switch applied."""
    return [
        failed_row(
            RowContext(
                run_id,
                c,
                cpuset,
                profile,
                LevelProbe(c.isa_level, {}, {}, "", NOT_BUILT),
                None,
                log_path=f"{LOGS_DIR}/{build_log_name(c.target)}",
                design=design,
            ),
            failed[c.target],
        )
        for c in cells
        if c.target in failed
    ]
