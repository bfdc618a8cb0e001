"""The labs and their images: `list`, `build`, `images`, `local-bases`, `pin-bases`, `compose`."""

from __future__ import annotations

import argparse
import sys
import time

from harness.builds.lab_build import build_lab
from harness.builds.lab_models import write_lab_models
from harness.builds.library_locks import prepare_library_builds
from harness.builds.watched_process import say_on_stderr
from harness.commands.selection import split
from harness.config.experiment.experiments import load_experiments
from harness.config.experiment.profiles import load_profiles
from harness.config.isa import load_isa_table
from harness.config.lab.labs import find_lab, load_labs
from harness.config.lab.library_switches import with_runtimes
from harness.model.arch import host_arch
from harness.model.defaults import REPO_ROOT, RESULTS_DIR
from harness.model.errors import HarnessError


def list_command() -> int:
    print("experiments:")
    for exp in load_experiments().values():
        print(f"  {exp.id}  {exp.title} ({len(exp.benchmarks)} benchmarks, {len(exp.claims)} claims)")
    print("profiles:")
    for profile in load_profiles().values():
        print(f"  {profile.name:8} {profile.description}")
    print(f"ISA levels ({host_arch()}):")
    for level in load_isa_table().levels_for(host_arch()).values():
        print(f"  {level.name:10} {level.description}")
    print("labs:")
    for lab in load_labs().values():
        print(f"  {lab.name:8} {lab.language} ({lab.directory})")
        for name, runtime in lab.runtimes.items():
            default = " (default)" if name == lab.default_runtime else ""
            print(f"    runtime {name:10} {runtime.note}{default}")
    return 0


def build_command(args: argparse.Namespace) -> int:
    build_labs(split(args.lab), split(args.runtime))
    return 0


def build_labs(names: tuple[str, ...] | None, runtimes: tuple[str, ...] | None) -> None:
    """Builds these labs (all) for these runtimes (each lab's all); a current build is reused."""
    labs = load_labs()
    names = names or tuple(labs)
    log_dir = RESULTS_DIR / "build-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    for name in names:
        lab = find_lab(labs, name)
        lab.check_requirements()
        for runtime in runtimes or lab.runtime_names:
            build = lab.for_runtime(runtime)
            prepare_library_builds([build], log_dir, say_on_stderr)
            built = build_lab(build, log_dir / f"build-{build.target}.log")
            print(f"{build.target}: {'built' if built else 'current, reused'}", file=sys.stderr)


def images_command(args: argparse.Namespace) -> int:
    from harness.backends.docker import DockerBackend
    from harness.containers.bases import DOCKER_ARCH_HOST
    from harness.containers.image_build import build_images, require_builder
    from harness.containers.images import inspect_image

    backend = DockerBackend(set(), args.bases, platform=args.platform)
    labs = load_labs()
    names = split(args.lab) or [n for n, lab in labs.items() if lab.container]
    runtimes = split(args.runtime)
    platform = args.platform or f"linux/{DOCKER_ARCH_HOST}"
    # Without --lab, a lab whose Dockerfile cannot build this platform is left out, and a runtime name applies to the
    # labs that have it.
    builds = []
    for name in names:
        lab = find_lab(labs, name)
        if not args.lab and (lab.container is None or platform not in lab.container.platforms):
            continue
        wanted = runtimes or lab.runtime_names
        lab = with_runtimes({name: lab}, wanted)[name]  # a runtime with library versions joins the lab's runtimes
        builds += [lab.for_runtime(runtime) for runtime in wanted if args.lab or runtime in lab.runtime_names]
    if not builds:
        raise HarnessError(
            f"no lab image matches --runtime {args.runtime} for {platform}",
            "run `python3 -m harness list` for the labs and their runtimes",
        )
    images = [backend.image(build) for build in builds]
    choices = {backend.bases_for(build) for build in builds}
    if len(choices) != 1:
        raise HarnessError("the labs would build on different bases", "pick one with --bases local or --bases upstream")
    bases = choices.pop()
    log_dir = RESULTS_DIR / "build-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    require_builder(backend.engine)  # no builder: stop here, before any base is made
    prepare_library_builds(builds, log_dir, say_on_stderr)
    if bases == "local":
        from harness.containers.bases import ensure_local_bases, image_exists
        from harness.containers.disk_space import require_space

        names = sorted({b for image in images for b in image.local_bases().values()})
        require_space(len(images) + sum(not image_exists(name) for name in names))  # a full disk: stop here
        ensure_local_bases(names, log_dir / "local-bases.log", say=say_on_stderr)
    started = time.monotonic()
    how = build_images(images, backend.engine, bases, log_dir, log_dir / "images.log")
    print(
        f"built {len(images)} image(s) with {how}, {bases} bases, in {time.monotonic() - started:.0f} s (log: "
        f"{log_dir / 'images.log'})",
        file=sys.stderr,
    )
    for image in images:
        info = inspect_image(image.tag)
        print(
            f"  {image.tag:28} {info.image_id[:19] if info else 'missing'}  "
            f"{info.size_bytes / 2**20 if info else 0:7.1f} MiB  {info.architecture if info else ''}"
        )
    return 0


def pin_bases_command(args: argparse.Namespace) -> int:
    from harness.containers.base_digests import pin, unpinned

    dockerfiles = [
        lab.directory / lab.container.dockerfile for lab in load_labs().values() if lab.container is not None
    ]
    if args.check:
        missing = unpinned(dockerfiles)
        for ref in missing:
            print(
                f"{ref.dockerfile.relative_to(REPO_ROOT)}: {ref.argument}={ref.reference} has no digest",
                file=sys.stderr,
            )
        return 1 if missing else 0
    for before, after in pin(dockerfiles):
        print(f"{before.dockerfile.relative_to(REPO_ROOT)}: {before.argument}={after}", file=sys.stderr)
    return 0


def local_bases_command(args: argparse.Namespace) -> int:
    from harness.containers.bases import DOCKER_ARCH_HOST, ensure_local_bases, load_local_bases

    names = split(args.base) or [
        name for name, base in load_local_bases().items() if base.architecture == DOCKER_ARCH_HOST
    ]
    log_dir = RESULTS_DIR / "build-logs"
    log_dir.mkdir(parents=True, exist_ok=True)
    built = ensure_local_bases(list(names), log_dir / "local-bases.log", rebuild=args.rebuild, say=say_on_stderr)
    for name in names:
        print(f"{name}: {'built' if name in built else 'present, reused'}", file=sys.stderr)
    return 0


def compose_command() -> int:
    from harness.containers.compose import render_compose
    from harness.containers.images import COMPOSE_FILE

    COMPOSE_FILE.write_text(render_compose(load_labs()))
    print(f"wrote {COMPOSE_FILE}", file=sys.stderr)
    return 0


def models_command(args: argparse.Namespace) -> int:
    """`harness models`: every lab's code for the declared models (datasets/models/*.toml) written now, as every build,
    test and `just images` writes it first; for a build by hand (`docker buildx bake -f compose.yaml`)."""
    for lab in load_labs().values():
        if lab.declared_models is not None:
            changed = write_lab_models(lab)
            print(f"lab {lab.name}: {lab.declared_models.out}: {', '.join(changed) or 'current'}")
    return 0
