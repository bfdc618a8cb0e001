"""`harness check` (`just check`): every experiment, profile and dataset checked in seconds, without building anything.

What it runs is what `harness plan` and `harness run` run before they plan: the schema and the references inside each
experiment file (harness/config/experiment/experiments.py), every name defined elsewhere
(harness/config/experiment/experiment_checks.py), and each plan
being non-empty. Here every profile is planned too, each experiment alone at its published CPUs' ISA levels and
runtimes, and every dataset is checked against the manifest. The first fault is a HarnessError (the CLI prints it as
`error:` and exits 2); no output file is written.
"""

from __future__ import annotations

import pathlib
import tempfile

from harness.config.experiment.experiment_checks import CheckContext, check_experiment, check_not_empty, load_context
from harness.config.experiment.experiment_templates import TYPED_EXPERIMENT_FILE, fill_template
from harness.config.experiment.experiments import load_experiments
from harness.config.experiment.profiles import load_profiles
from harness.model.arch import host_arch
from harness.model.defaults import DATASETS_DIR, EXPERIMENTS_DIR, LABS_DIR, PROFILES_FILE
from harness.model.errors import ConfigError
from harness.model.experiment import Experiment
from harness.planning.plan import (
    CLAIMED_LEVELS,
    CLAIMED_RUNTIMES,
    SWEEP_RUNTIMES,
    levels_by_benchmark,
    plan_cells,
    runtimes_by_benchmark,
)
from harness.planning.run_plan import RunOptions, resolve_plan


def plan_alone(exp: Experiment, context: CheckContext) -> int:
    """The experiment's cells on its own, at its published CPUs' ISA levels and stand-in runtimes (plus the sweep): the
    plan of the default profile for it. Zero is an error (check_not_empty); returns the count."""
    levels, runtimes = [CLAIMED_LEVELS], [CLAIMED_RUNTIMES, SWEEP_RUNTIMES]
    arch = host_arch()
    per_benchmark = levels_by_benchmark(context.isa, arch, levels, [exp])
    per_runtime = runtimes_by_benchmark(context.labs, runtimes, [exp])
    cells = plan_cells(
        [exp], list(context.isa.levels_for(arch).values()), per_benchmark=per_benchmark, runtimes=per_runtime
    )
    check_not_empty(
        [exp], per_benchmark, per_runtime, levels, arch, context.isa, cells, f"experiment {exp.id} alone, --isa claims"
    )
    return len(cells)


def check_experiment_files(
    experiments_dir: pathlib.Path = EXPERIMENTS_DIR,
    labs_dir: pathlib.Path = LABS_DIR,
    datasets_dir: pathlib.Path = DATASETS_DIR,
) -> list[str]:
    """Every experiment of a folder: its file, its names, its plan alone. One line per experiment."""
    return _check_experiments(experiments_dir, load_context(labs_dir, datasets_dir))


def _check_experiments(experiments_dir: pathlib.Path, context: CheckContext) -> list[str]:
    lines = []
    for exp in load_experiments(experiments_dir).values():
        check_experiment(exp, context)
        lines.append(
            f"ok  experiment {exp.id}  {len(exp.benchmarks)} benchmarks, {len(exp.claims)} claims, "
            f"{plan_alone(exp, context)} cells planned alone (--isa claims --runtime claims,sweep)"
        )
    return lines


def check_everything(
    experiments_dir: pathlib.Path = EXPERIMENTS_DIR,
    profiles_file: pathlib.Path = PROFILES_FILE,
    labs_dir: pathlib.Path = LABS_DIR,
    datasets_dir: pathlib.Path = DATASETS_DIR,
) -> list[str]:
    """Experiments, then every profile's plan (as `harness plan` makes it, without requiring the labs' programs), then
    every dataset's bytes and canonical digest."""
    context = load_context(labs_dir, datasets_dir)
    lines = _check_experiments(experiments_dir, context)
    for name, profile in load_profiles(profiles_file).items():
        with tempfile.TemporaryDirectory() as scratch:  # a template is planned filled in for one of the lab's datasets
            folder = experiments_dir
            if profile.template:
                sample = next(d.name for d in context.manifest.datasets.values() if d.committed and not d.local)
                folder = fill_template(experiments_dir / profile.template, sample, pathlib.Path(scratch))
            if profile.typed_template:  # filled for a dataset of a declared model, as for a document's inferred one
                typed = next(d.name for d in context.manifest.datasets.values() if "." in (d.model or ""))
                folder = fill_template(experiments_dir / profile.typed_template, typed, folder, TYPED_EXPERIMENT_FILE)
            plan = resolve_plan(
                RunOptions(
                    profile=name,
                    experiments_dir=folder,
                    profiles_file=profiles_file,
                    labs_dir=labs_dir,
                    datasets_dir=datasets_dir,
                    build=False,
                    pin_harness=False,
                    calibrate=False,
                    check_tools=False,
                )
            )
        lines.append(f"ok  profile {name}  {len(plan.cells)} cells")
    manifest = context.manifest
    absent = [name for name, d in manifest.datasets.items() if not d.committed and not manifest.present(name)]
    yours = [name for name, d in manifest.datasets.items() if d.local]  # checked by the run that measures one
    for name in manifest.datasets:
        if name not in absent and name not in yours:
            manifest.check(name)  # streamed: a generated file of hundreds of MB costs its read
            dataset = manifest.find(name)
            if dataset.committed and not dataset.local:  # a generated one's, or yours: `harness check-datasets`
                manifest.check_canonical(name)
    generated = f"; {len(absent)} generated, not built here ({', '.join(absent)}: `just datasets`)" if absent else ""
    mine = f"; {len(yours)} of your documents in datasets/local/, checked when measured" if yours else ""
    matched = len(manifest.datasets) - len(absent) - len(yours)
    lines.append(f"ok  datasets  {matched} match datasets/manifest.json{generated}{mine}")
    lines.append(_check_declared_models(context))
    return lines


def _check_declared_models(context: CheckContext) -> str:
    """Every model file read and checked (as a build would write its code); a dataset naming "<space>.<root>" names one
    of them."""
    declared = context.declared_models
    for dataset in context.manifest.datasets.values():
        if dataset.model and "." in dataset.model and dataset.model not in declared:
            raise ConfigError(
                f"dataset '{dataset.name}' names model '{dataset.model}', which no datasets/models/*.toml declares",
                f"declared models: {', '.join(declared) or 'none'} (docs/experiments.md, 'Models as data')",
            )
    return f"ok  models  {len(declared)} declared roots ({', '.join(declared) or 'none'})"
