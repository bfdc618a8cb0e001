"""`harness payload FILE`: the user's JSON document as a dataset (checked, copied to datasets/local/, kept out of git:
harness/config/local_datasets.py) and as an experiment (experiments/templates/payload.toml with the document's name
filled in, written to results/payloads/<name>/experiments/ and checked like any experiment file). Prints that folder:
`just payload FILE` runs profile `payload` with it as --experiments-dir, then the conformance pass and the report."""

from __future__ import annotations

import argparse
import pathlib
import sys

from harness.config.datasets import load_manifest
from harness.config.experiment_checks import CheckContext, check_experiments
from harness.config.experiment_templates import EXPERIMENT_FILE, fill_template
from harness.config.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.config.lab_catalog import load_lab_catalog
from harness.config.labs import load_labs
from harness.config.local_datasets import add_document, payload_name
from harness.config.profiles import find_profile, load_profiles
from harness.model.defaults import DATASETS_DIR, EXPERIMENTS_DIR, LABS_DIR, RESULTS_DIR
from harness.model.errors import ConfigError

#: The profile `just payload` runs; its `template` is the experiment filled in for the document.
PROFILE = "payload"


def payload_command(args: argparse.Namespace) -> int:
    taken = {name for name, dataset in load_manifest(args.datasets_dir).datasets.items() if not dataset.local}
    name = payload_name(args.file, args.name)
    entry = add_document(args.datasets_dir, args.file, name, taken)
    template = find_profile(load_profiles(), PROFILE).template
    if template is None:
        raise ConfigError(f"profile {PROFILE} names no template", 'add template = "templates/payload.toml" to it')
    folder = fill_template(EXPERIMENTS_DIR / template, name, args.results_dir / "payloads" / name / "experiments")
    labs = load_labs(LABS_DIR)
    context = CheckContext(
        labs, load_isa_table(labs_dir=LABS_DIR), load_manifest(args.datasets_dir), load_lab_catalog()
    )
    check_experiments(list(load_experiments(folder).values()), context)
    leaves = entry["canonical"]["leaves"]
    print(
        f"your document {name}: {entry['bytes']:,} bytes, {leaves:,} values, kept in datasets/{entry['path']} (out of "
        f"git); its experiment: {folder / EXPERIMENT_FILE}",
        file=sys.stderr,
    )
    print(folder)
    return 0


def add_payload_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=pathlib.Path, help="your JSON document (an object or an array, UTF-8)")
    parser.add_argument("--name", help="what to call it (default: made from the file's name)")
    parser.add_argument("--results-dir", type=pathlib.Path, default=RESULTS_DIR, help="where its experiment goes")
    parser.add_argument("--datasets-dir", type=pathlib.Path, default=DATASETS_DIR, help=argparse.SUPPRESS)
