"""`harness bisect RUN`: for every figure of an explain run whose ratio a library version moved (its ratio on the build
with the write-up's version lies apart from the ratio on the lab's own build, both 99% intervals: the report's
tables/reproduction.csv), the versions the registry serves between the two are bisected
(harness/model/stats/bisection.py): each step is a run of profile `bisect` measuring the figure's benchmark and its
reference on a build with one version, paired in one process as the figure was. Writes
results/bisections/<run>/bisection.md and readings.jsonl; a run where no version moved a ratio has nothing to bisect,
and says so."""

from __future__ import annotations

import argparse
import csv
import json
import math
import pathlib
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import asdict, dataclass

from harness.config.experiment.experiments import load_experiments
from harness.config.lab.labs import LabSpec, load_labs
from harness.config.lab.library_builds import build_name
from harness.config.lab.library_switches import own_versions
from harness.licences.package_registry import served_versions
from harness.model.defaults import EXPERIMENTS_DIR, RESULTS_DIR
from harness.model.errors import HarnessError
from harness.model.folder.store import RunStore
from harness.model.places import base_runtime, switched_libraries, switched_settings
from harness.model.stats.bisection import Bisection, Reading, between, bisect
from harness.model.stats.pairing import paired_ratio_interval
from harness.session.rounds.stopping import measured_replicates

#: The figure's identity in the reproduction table (analysis/compute/verdicts/explained_by.py FIGURE).
FIGURE = ("experiment", "scenario", "published_variant", "benchmark", "reference", "metric", "isa_level")
#: The most rows a reproduction table may have before it is refused as not the lab's.
MAX_ROWS = 100_000


@dataclass(frozen=True)
class Target:
    """One figure and one library whose write-up version moved its ratio on one runtime."""

    experiment: str
    benchmark: str
    reference: str
    isa_level: str
    runtime: str
    package: str
    here: str  # the lab's own version on that runtime
    published: str  # the write-up's

    def place(self, version: str) -> str:
        """The build measuring `version`: the lab's own runtime for its own version."""
        return self.runtime if version == self.here else build_name(self.runtime, ((self.package, version),))


def _number(text: str | None) -> float | None:
    try:
        value = float(text or "")
    except ValueError:
        return None
    return value if math.isfinite(value) else None


def _table(run_dir: pathlib.Path) -> list[dict[str, str]]:
    path = run_dir / "report" / "tables" / "reproduction.csv"
    if not path.is_file():
        raise HarnessError(f"no {path}", f"render the run's report first: just report {run_dir}")
    try:
        with path.open(newline="", encoding="utf-8") as f:
            rows = [row for _, row in zip(range(MAX_ROWS + 1), csv.DictReader(f))]
    except (OSError, UnicodeDecodeError, csv.Error) as e:
        raise HarnessError(f"{path} cannot be read: {e}", "render the report again: just report RUN") from e
    if len(rows) > MAX_ROWS or (rows and not set(FIGURE) | {"runtime", "primary"} <= set(rows[0])):
        raise HarnessError(
            f"{path} is not a reproduction table of this lab", "render the report again: just report RUN"
        )
    return rows


def _apart(a: dict[str, str], b: dict[str, str]) -> bool:
    bounds = [_number(r.get(k)) for r in (a, b) for k in ("measured_ratio_lower", "measured_ratio_upper")]
    if any(v is None for v in bounds):
        return False
    a_low, a_high, b_low, b_high = bounds
    return a_high < b_low or b_high < a_low  # type: ignore[operator]


def moved_versions(run_dir: pathlib.Path, labs: dict[str, LabSpec]) -> list[Target]:
    """Every (figure, library) of the run whose switched build's time ratio lies apart from the figure's own."""
    rows = [r for r in _table(run_dir) if r.get("metric") == "time"]
    experiments = load_experiments(_kept(run_dir))
    targets: dict[Target, None] = {}
    for base in (r for r in rows if r.get("primary") == "True"):
        for row in rows:
            place = row.get("runtime", "")
            same = all(row.get(k) == base.get(k) for k in FIGURE)
            libraries = switched_libraries(place)
            if not same or switched_settings(place) or len(libraries) != 1 or base_runtime(place) != base["runtime"]:
                continue
            exp = experiments.get(base["experiment"])
            bench = exp.benchmarks.get(base["benchmark"]) if exp else None
            if bench is None or bench.lab not in labs or not _apart(base, row):
                continue
            package, published = libraries[0]
            here = own_versions(labs[bench.lab], base["runtime"]).get(package, "")
            if here and here != published:
                target = Target(
                    base["experiment"],
                    base["benchmark"],
                    base["reference"],
                    base["isa_level"],
                    base["runtime"],
                    package,
                    here,
                    published,
                )
                targets[target] = None
    return list(targets)


def _kept(run_dir: pathlib.Path) -> pathlib.Path:
    """The experiments as the run had them (its kept experiments/), or today's for a run without them."""
    kept = run_dir / "experiments"
    return kept if any(kept.glob("*.toml")) else EXPERIMENTS_DIR


def figure_reading(run_dir: pathlib.Path, target: Target, version: str) -> Reading:
    """The figure's ratio in one step's run: its benchmark over its reference on the version's build."""
    place = target.place(version)
    rows = [
        r
        for r in RunStore(run_dir).rows().values()
        if r.experiment == target.experiment and r.isa_requested == target.isa_level and r.runtime_requested == place
    ]
    replicates = measured_replicates(rows)
    interval = paired_ratio_interval(replicates.get(target.benchmark, []), replicates.get(target.reference, []))
    if interval is None or interval.lower is None or interval.upper is None:
        raise HarnessError(
            f"run {run_dir.name} has no ratio with an interval for {target.benchmark} over {target.reference} "
            f"on {place}",
            f"see its logs under {run_dir / 'logs'}; a rerun of `harness bisect` measures the step again",
        )
    return Reading(version, interval.estimate, interval.lower, interval.upper, run_dir.name)


#: Runs one step: (target, its version, the run id) → the run folder.
StepRunner = Callable[[Target, str, str], pathlib.Path]


def run_step_process(results_dir: pathlib.Path) -> StepRunner:
    """A step as `python3 -m harness run --profile bisect …` (its progress on stderr; its folder on stdout); a step
    whose run folder exists (a bisection run again after a failure) is resumed, its finished cells kept."""

    def run(target: Target, version: str, run_id: str) -> pathlib.Path:
        command = [sys.executable, "-m", "harness", "run", "--profile", "bisect", "--experiment", target.experiment]
        command += ["--benchmark", f"{target.benchmark},{target.reference}", "--isa", target.isa_level]
        command += ["--runtime", target.place(version), "--run-id", run_id, "--results-dir", str(results_dir)]
        command += ["--resume"] if (results_dir / run_id).is_dir() else []
        done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
        lines = done.stdout.strip().splitlines()
        if done.returncode != 0 or not lines:
            raise HarnessError(f"the bisection's run {run_id} failed (exit {done.returncode})", "see its output above")
        return pathlib.Path(lines[-1])

    return run


def bisect_target(target: Target, served: list[str], run_step: StepRunner, stem: str) -> Bisection:
    """One target bisected over the served versions between the lab's and the write-up's."""
    versions = between(served, target.here, target.published)

    def measure(version: str) -> Reading:
        run_id = re.sub(r"[^A-Za-z0-9._-]+", "_", f"{stem}-{target.benchmark}-{target.package}-{version}")[:100]
        return figure_reading(run_step(target, version, run_id), target, version)

    return bisect(target.package, versions, measure)


def _markdown(source: str, done: list[tuple[Target, Bisection]]) -> Iterator[str]:
    yield f"# Bisections of run {source}\n"
    for target, result in done:
        where = f"{target.isa_level}, {target.runtime}"
        yield f"## {target.experiment} {target.benchmark} over {target.reference}, {where}\n"
        yield f"{result.summary()}.\n"
        yield f"Versions served from the lab's to the write-up's: {', '.join(result.versions)}.\n"
        yield from (f"- {reading.text}" for reading in result.readings)
        yield ""


def bisect_command(args: argparse.Namespace, run_step: StepRunner | None = None, served=served_versions) -> int:
    run_dir = args.run.resolve()
    labs = load_labs()
    targets = [t for t in moved_versions(run_dir, labs) if not args.benchmark or t.benchmark in args.benchmark]
    if not targets:
        print(
            f"run {run_dir.name}: no library version moved a figure's ratio beyond its 99% interval: nothing to bisect"
        )
        return 0
    for target in targets:
        print(f"to bisect: {target.experiment} {target.benchmark}, {target.package} {target.here} → {target.published}")
    if args.dry_run:
        return 0
    stem = f"bisect-{run_dir.name}"
    run_step = run_step or run_step_process(args.results_dir)
    done: list[tuple[Target, Bisection]] = []
    out = args.results_dir / "bisections" / run_dir.name
    try:
        for target in targets:
            spec = labs[load_experiments(_kept(run_dir))[target.experiment].benchmarks[target.benchmark].lab]
            if spec.library_versions is None:
                raise HarnessError(f"lab {spec.name} lets no library vary", "bisect a lab with [library_versions]")
            result = bisect_target(target, served(spec.library_versions, target.package), run_step, stem)
            print(f"{target.benchmark}: {result.summary()}")
            done.append((target, result))
    finally:  # what was bisected before a failure is kept; a rerun resumes the failed step's run
        _write(out, run_dir.name, done)
    return 0


def _write(out: pathlib.Path, source: str, done: list[tuple[Target, Bisection]]) -> None:
    if not done:
        return
    out.mkdir(parents=True, exist_ok=True)
    (out / "bisection.md").write_text("\n".join(_markdown(source, done)) + "\n")
    lines = [json.dumps({**asdict(t), "reading": asdict(r)}) for t, b in done for r in b.readings]
    (out / "readings.jsonl").write_text("\n".join(lines) + "\n")
    print(out / "bisection.md")


def add_bisect_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("run", type=pathlib.Path, help="an explain run's folder, its report rendered")
    parser.add_argument("--benchmark", type=lambda s: s.split(","), help="only these figures' benchmarks")
    parser.add_argument("--dry-run", action="store_true", help="list what would be bisected, measure nothing")
    parser.add_argument("--results-dir", type=pathlib.Path, default=RESULTS_DIR, help="where step runs go")
