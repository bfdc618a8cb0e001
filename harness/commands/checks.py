"""Checks made without measuring: `check`, `doctor`, and the datasets (`check-datasets`, `regenerate-datasets`,
`canonical-digests`)."""

from __future__ import annotations

import argparse
import time

from harness.builds.lab_models import lab_model_probe
from harness.commands.selection import split
from harness.config.data.datasets import load_manifest, regenerate, write_canonical_digests
from harness.config.data.declared_models import ModelSpace, load_spaces
from harness.config.lab.labs import LabSpec, load_labs
from harness.host.preflight import doctor
from harness.model.defaults import DATASETS_DIR


def check_command(args: argparse.Namespace) -> int:
    from harness.planning.check import check_everything, check_experiment_files

    started = time.monotonic()
    lines = check_experiment_files(args.experiments_dir) if args.experiments_dir else check_everything()
    lines += probe_declared_models(load_labs(), load_spaces(DATASETS_DIR))
    print("\n".join(lines))
    print(f"all checks passed in {time.monotonic() - started:.1f} s; nothing was built or measured")
    return 0


def probe_declared_models(labs: dict[str, LabSpec], spaces: list[ModelSpace]) -> list[str]:
    """Each lab's probe of its declared models' code ([declared_models] probe): what its build will leave out, and why,
    said before anything is built."""
    lines = []
    for lab in labs.values():
        if lab.declared_models is not None and lab.declared_models.probe:
            probe = lab_model_probe(lab, spaces)
            mark = "ok  " if not probe.left_out and not probe.note else "note"
            lines.append(f"{mark}  lab {lab.name} {lab.declared_models.probe} probe  {probe.describe()}")
    return lines


def doctor_command(args: argparse.Namespace) -> int:
    text, status = doctor(split(args.needs), extras=args.all, brief=args.brief)
    if not args.needs:
        print("\n".join(containers_lines()))
    print(text)
    return status


def containers_lines() -> list[str]:
    """The engine, and which docker CLI builds the lab images on it (a probe build of under a second each)."""
    from harness.containers.builder import describe_for_doctor, find_builder
    from harness.containers.engine import NO_CLI, find_engine

    engine, reason = find_engine()
    if engine is None and reason == NO_CLI:
        return [f"containers: {reason}: runs use the host backend (apt-get install docker.io)"]
    if engine is not None and engine.builds is not None:
        where = f"Docker engine {engine.server_version} ({engine.arch})"
        return [f"containers: {where}", *describe_for_doctor(True, engine.builds)]
    return [f"containers: {reason}", *describe_for_doctor(False, find_builder())]


def regenerate_datasets_command() -> int:
    for dataset in regenerate(load_manifest(), load_labs()):
        print(f"regenerated {dataset.name:20} {dataset.bytes:>9} B  {dataset.sha256[:16]}…  matches the manifest")
    return 0


def check_datasets_command() -> int:
    manifest = load_manifest()
    for name in manifest.datasets:
        if not manifest.find(name).committed and not manifest.present(name):
            print(f"--  {name:16} generated, not built here: `just datasets` builds it")
            continue
        dataset = manifest.check(name)
        manifest.check_canonical(name)
        canonical = f"  canonical {dataset.canonical['leaves']} leaves" if dataset.canonical else ""
        print(f"ok  {name:16} {dataset.bytes:>9} B  {dataset.sha256[:16]}…  {dataset.path}{canonical}")
    return 0


def canonical_digests_command() -> int:
    changed = write_canonical_digests(load_manifest())
    print(f"datasets/manifest.json: {changed} canonical digest(s) written or changed")
    return 0
