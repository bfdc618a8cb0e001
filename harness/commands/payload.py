"""`harness payload FILE`: the user's JSON document as a dataset (checked, copied to datasets/local/, kept out of git:
harness/config/data/local_datasets.py) and as an experiment (experiments/templates/payload.toml with the document's name
filled in, written to results/payloads/<name>/experiments/ and checked like any experiment file). Prints that folder:
`just payload FILE` runs profile `payload` with it as --experiments-dir, then the conformance pass and the report."""

from __future__ import annotations

import argparse
import json
import pathlib
import sys

from harness.codegen.infer_model import InferenceError, infer_model
from harness.config.data.datasets import load_manifest
from harness.config.data.local_datasets import (
    LOCAL_DIR,
    MAX_PAYLOAD_BYTES,
    add_document,
    check_document,
    payload_name,
    set_document_model,
)
from harness.config.data.local_models import adopt_model, keep_model, kept_model
from harness.config.experiment.experiment_checks import CheckContext, check_experiments
from harness.config.experiment.experiment_templates import TYPED_EXPERIMENT_FILE, fill_template
from harness.config.experiment.experiments import load_experiments
from harness.config.experiment.profiles import find_profile, load_profiles
from harness.config.isa import load_isa_table
from harness.config.lab.lab_catalog import load_lab_catalog
from harness.config.lab.labs import load_labs
from harness.model.defaults import DATASETS_DIR, EXPERIMENTS_DIR, LABS_DIR, RESULTS_DIR
from harness.model.errors import ConfigError

#: The profile `just payload` runs; its `template` is the experiment filled in for the document.
PROFILE = "payload"


def payload_command(args: argparse.Namespace) -> int:
    taken = {name for name, dataset in load_manifest(args.datasets_dir).datasets.items() if not dataset.local}
    name = payload_name(args.file, args.name)
    entry = add_document(args.datasets_dir, args.file, name, taken)
    typed, said = _model(args, name)
    set_document_model(args.datasets_dir, name, typed)
    print(f"your document {name}: {said}", file=sys.stderr)
    profile = find_profile(load_profiles(), PROFILE)
    if profile.template is None or profile.typed_template is None:
        raise ConfigError(
            f"profile {PROFILE} names no template or typed_template",
            'add template = "templates/payload.toml" and typed_template = "templates/payload-typed.toml" to it',
        )
    folder = args.results_dir / "payloads" / name / "experiments"
    fill_template(EXPERIMENTS_DIR / profile.template, name, folder)
    (folder / TYPED_EXPERIMENT_FILE).unlink(missing_ok=True)  # an earlier typed run's
    if typed:
        fill_template(EXPERIMENTS_DIR / profile.typed_template, name, folder, TYPED_EXPERIMENT_FILE)
    labs = load_labs(LABS_DIR)
    context = CheckContext(
        labs, load_isa_table(labs_dir=LABS_DIR), load_manifest(args.datasets_dir), load_lab_catalog()
    )
    check_experiments(list(load_experiments(folder).values()), context)
    leaves = entry["canonical"]["leaves"]
    print(
        f"your document {name}: {entry['bytes']:,} bytes, {leaves:,} values, kept in datasets/{entry['path']} (out of "
        f"git); its experiments: {', '.join(str(f) for f in sorted(folder.glob('*.toml')))}",
        file=sys.stderr,
    )
    print(folder)
    return 0


def _model(args: argparse.Namespace, name: str) -> tuple[bool, str]:
    """Whether the document is measured typed too, and what was done for its model (yours, kept, inferred, none)."""
    if args.untyped:
        return False, "measured untyped only (--untyped)"
    if args.model is not None:
        return True, f"bound to your model {adopt_model(args.datasets_dir, name, args.model)}"
    kept = kept_model(args.datasets_dir, name)
    if kept is not None:
        return True, f"bound to the model kept from before, {kept} (delete it to infer the model again)"
    document = json.loads((args.datasets_dir / LOCAL_DIR / f"{name}.json").read_bytes())
    try:
        text = infer_model(document, f"your document {args.file.name}")
        path = keep_model(args.datasets_dir, name, text)  # checked as any model file (a name .NET code cannot take)
    except (InferenceError, ConfigError) as e:
        return False, f"no typed model: {e}; measured untyped only (give one with --model SCHEMA)"
    return True, f"bound to the model inferred from it, {path} (review it; edit it and run again, or give --model)"


def add_payload_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", type=pathlib.Path, help="your JSON document (an object or an array, UTF-8)")
    parser.add_argument("--name", help="what to call it (default: made from the file's name)")
    typing = parser.add_mutually_exclusive_group()
    typing.add_argument(
        "--model",
        type=pathlib.Path,
        help="your model file for it (docs/experiments.md, 'Models as data'; root 'document')",
    )
    typing.add_argument("--untyped", action="store_true", help="no typed binding: untyped parse and serialize only")
    parser.add_argument("--results-dir", type=pathlib.Path, default=RESULTS_DIR, help="where its experiment goes")
    parser.add_argument("--datasets-dir", type=pathlib.Path, default=DATASETS_DIR, help=argparse.SUPPRESS)


def infer_model_command(args: argparse.Namespace) -> int:
    """`harness infer-model FILE`: the model file inferred from a JSON document, on stdout (checked as `payload` checks
    a document; an InferenceError says where no type fits)."""
    data, _ = check_document(args.file, MAX_PAYLOAD_BYTES)
    try:
        print(infer_model(json.loads(data), args.file.name), end="")
    except InferenceError as e:
        raise ConfigError(
            f"{args.file.name} has no typed model: {e}", "declare one by hand (docs/experiments.md)"
        ) from None
    return 0
