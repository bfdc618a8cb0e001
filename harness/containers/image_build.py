"""Building the lab images: the build context prepared, then every image that is not current built with the builder
the engine's probe found (harness/containers/builder.py): one Buildx bake over compose.yaml, or one BuildKit build
each, numbered; each build's output kept in its log, and a line at least every 30 s on stderr while it runs."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable

from harness.builds.build_failure import read_build_failure
from harness.builds.lab_build import build_lab, run_lab_tool
from harness.builds.lab_models import write_lab_models
from harness.builds.watched_process import WatchedBuild, run_watched, say_on_stderr
from harness.config.lab.labs import LabSpec
from harness.containers.builder import FIX, Builder, find_builder
from harness.containers.engine import Engine
from harness.containers.images import BASES, COMPOSE_FILE, LabImage, label_apt_packages
from harness.containers.seed import make_seed
from harness.model.defaults import BUILD_TIMEOUT_S, REPO_ROOT
from harness.model.errors import BuildError, ConfigError


def build_images(
    images: list[LabImage],
    engine: Engine,
    bases: str,
    work_dir: pathlib.Path,
    log_path: pathlib.Path,
    say: Callable[[str], None] = say_on_stderr,
) -> str:
    """Builds the images with the engine's probed builder (all together with Buildx bake, else one BuildKit build each,
    numbered); returns how it built them. Local bases build offline: the lab's NuGet seed folder (in its build
    context) is filled first. No builder: BuildError with the fix, before anything is prepared."""
    if bases not in BASES:
        raise ConfigError(f"unknown base choice {bases!r}", f"one of {', '.join(BASES)}")
    if not images:
        return "nothing to build"
    builder = require_builder(engine)
    for image in images:
        log = log_path.parent / f"build-{image.lab.target}.log"
        write_lab_models(image.lab)  # the declared models' code in its build context, as its fingerprint hashed it
        prepare_context(image.lab, bases, log, say)
    if bases == "local":
        # every build's: a build with library versions has its own lock file (make_seed reuses what is there)
        for lab in {image.lab.target: image.lab for image in images}.values():
            if lab.container is not None and lab.container.offline_seed:
                make_seed(lab, lab.directory / lab.container.offline_seed)
    if builder.method == "bake":
        _bake(builder, images, bases, work_dir, log_path, say)
    else:
        for number, image in enumerate(images, 1):
            _docker_build(builder, image, bases, log_path, say, f"image {number}/{len(images)} {image.tag}")
    with log_path.open("a") as build_log:
        for image in images:
            build_log.write(label_apt_packages(image) + "\n")
    return builder.describe()


def require_builder(engine: Engine) -> Builder:
    """The engine's builder (probed now when it was not), or BuildError naming what each candidate answered and the
    fix."""
    probe = engine.builds or find_builder()
    if probe.builder is None:
        raise BuildError(f"the lab images cannot be built here: {probe.describe()}", FIX)
    return probe.builder


def prepare_context(
    lab: LabSpec, bases: str, log_path: pathlib.Path, say: Callable[[str], None] = say_on_stderr
) -> None:
    """Makes what an image build of this lab build reads from the lab folder: lab.toml [container] `prepare`, for every
    build; for an offline build (local bases), the packages it restores, downloaded into this host's cache by the
    runtime's `offline_restore` (without compiling anything) or, for a lab that declares neither, its build on this host
    (reused when current), which restores the same. The NuGet seed is then copied from that cache."""
    spec = lab.container
    log_path.write_text("")
    if spec and spec.prepare:
        run_lab_tool(lab, spec.prepare, log_path, "image preparation", say)
    if bases != "local":
        return
    if spec and spec.offline_restore:
        run_lab_tool(lab, spec.offline_restore, log_path, "offline restore", say)
    elif not (spec and spec.prepare):
        build_lab(lab, log_path, say)


def bake_overrides(images: list[LabImage], bases: str) -> dict:
    """A bake file merged over compose.yaml: this build's arguments, labels (LabImage.labels), tags and one platform
    per image (Buildx's docker driver builds one platform at a time)."""
    return {
        "target": {
            image.service: {
                "args": image.build_args(bases),
                "labels": image.labels(bases),
                "tags": [image.tag],
                "platforms": [image_platform(image)],
            }
            for image in images
        }
    }


def switched_services(images: list[LabImage]) -> dict:
    """A compose file beside compose.yaml with a service for each build with library versions (config/library_builds
    .py), which compose.yaml has none for: its context, Dockerfile and the network compose.yaml's services take from
    BUILD_NETWORK. Compose, not a bake attribute: Buildx reads `network` in a bake file only from 0.17 on."""
    return {
        "services": {
            image.service: {
                "build": {
                    "context": str(image.lab.directory),
                    "dockerfile": image.container.dockerfile,
                    "network": "${BUILD_NETWORK:-default}",
                }
            }
            for image in images
            if image.lab.build_libraries
        }
    }


def image_platform(image: LabImage) -> str:
    return image.platform or f"linux/{image.target_arch}"


def _bake(
    builder: Builder,
    images: list[LabImage],
    bases: str,
    work_dir: pathlib.Path,
    log_path: pathlib.Path,
    say: Callable[[str], None],
) -> None:
    override = work_dir / "bake-override.json"
    override.write_text(json.dumps(bake_overrides(images, bases), indent=2))
    switched = switched_services(images)
    services = work_dir / "switched-compose.yaml"  # JSON is YAML; the name tells bake it is a compose file
    services.write_text(json.dumps(switched, indent=2))
    command = builder.command(
        "bake",
        "-f",
        str(COMPOSE_FILE),
        *(["-f", str(services)] if switched["services"] else []),
        "-f",
        str(override),
        "--load",
        "--progress",
        "plain",
        *(image.service for image in images),
    )
    label = f"{len(images)} image{'s' if len(images) > 1 else ''} with buildx bake"
    env = {"BUILD_NETWORK": "none"} if bases == "local" else {}
    _run_build(WatchedBuild(command, label, [image.tag for image in images]), log_path, env, say)


def _docker_build(
    builder: Builder, image: LabImage, bases: str, log_path: pathlib.Path, say: Callable[[str], None], label: str
) -> None:
    args = [x for key, value in image.build_args(bases).items() for x in ("--build-arg", f"{key}={value}")]
    labels = [x for key, value in image.labels(bases).items() for x in ("--label", f"{key}={value}")]
    network = ["--network", "none"] if bases == "local" else []
    command = builder.command(
        "build",
        "--progress",
        "plain",
        "-f",
        str(image.dockerfile),
        "-t",
        image.tag,
        *args,
        *labels,
        "--platform",
        image_platform(image),
        *network,
        str(image.lab.directory),
    )
    _run_build(WatchedBuild(command, label, [image.tag]), log_path, builder.environment, say)


def _run_build(build: WatchedBuild, log_path: pathlib.Path, env: dict[str, str], say: Callable[[str], None]) -> None:
    start = log_path.stat().st_size if log_path.exists() else 0  # the log may hold earlier builds
    code, _ = run_watched(build, log_path, env, REPO_ROOT, BUILD_TIMEOUT_S, say)
    if code is None:
        raise BuildError(f"the image build took over {BUILD_TIMEOUT_S} s", f"log: {log_path}")
    if code != 0:
        with log_path.open("rb") as log:
            log.seek(start)
            output = log.read().decode(errors="replace").split("\n", 1)[-1]  # after the "$ command" line
        steps = [line.strip() for line in output.splitlines() if "ERROR" in line] or ["no output"]
        failure = read_build_failure(output)
        raise BuildError(failure.message("the image build", steps[-1]), f"{failure.advice} (full log: {log_path})")
