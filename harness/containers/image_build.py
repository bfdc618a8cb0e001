"""Building the lab images: the build context prepared, then every image that is not current built in one Buildx bake
over compose.yaml (or one plain docker build each without the plugin), each build's output kept in its log."""

from __future__ import annotations

import json
import pathlib
import subprocess
from harness.session.build import build_lab, run_lab_tool
from harness.containers.engine import Engine
from harness.containers.seed import make_seed
from harness.config.defaults import BUILD_TIMEOUT_S, REPO_ROOT
from harness.model.errors import BuildError, ConfigError
from harness.config.labs import LabSpec
from harness.containers.images import BASES, COMPOSE_FILE, LabImage


def build_images(
    images: list[LabImage], engine: Engine, bases: str, work_dir: pathlib.Path, log_path: pathlib.Path
) -> str:
    """Builds the images (all together with Buildx bake, else one `docker build` each); returns how it built them.
    Local bases build offline: the lab's NuGet seed folder (in its build context) is filled first."""
    if bases not in BASES:
        raise ConfigError(f"unknown base choice {bases!r}", f"one of {', '.join(BASES)}")
    if not images:
        return "nothing to build"
    for image in images:
        prepare_context(image.lab, bases, log_path.parent / f"build-{image.lab.target}.log")
    if bases == "local":
        for lab in {image.lab.name: image.lab for image in images}.values():
            if lab.container is not None and lab.container.offline_seed:
                make_seed(lab, lab.directory / lab.container.offline_seed)
    if engine.buildx_version is not None:
        _bake(images, bases, work_dir, log_path)
        return f"docker buildx bake ({engine.buildx_version}) over {COMPOSE_FILE.name}"
    for image in images:
        _docker_build(image, bases, log_path)
    return "docker build per image (no Buildx plugin)"


def prepare_context(lab: LabSpec, bases: str, log_path: pathlib.Path) -> None:
    """Makes what an image build of this lab build reads from the lab folder: lab.toml [container] `prepare`, for every
    build; for an offline build (local bases), the packages it restores, downloaded into this host's cache by the
    runtime's `offline_restore` (without compiling anything) or, for a lab that declares neither, its native build
    (reused when current), which restores the same. The NuGet seed is then copied from that cache."""
    spec = lab.container
    log_path.write_text("")
    if spec and spec.prepare:
        run_lab_tool(lab, spec.prepare, log_path, f"image preparation for {lab.target}")
    if bases != "local":
        return
    if spec and spec.offline_restore:
        run_lab_tool(lab, spec.offline_restore, log_path, f"offline restore for {lab.target}")
    elif not (spec and spec.prepare):
        build_lab(lab, log_path)


def bake_overrides(images: list[LabImage], bases: str) -> dict:
    """A bake file merged over compose.yaml: this build's arguments, tags and one platform per image (Buildx's docker
    driver builds one platform at a time)."""
    return {
        "target": {
            image.service: {"args": image.build_args(bases), "tags": [image.tag], "platforms": [image_platform(image)]}
            for image in images
        }
    }


def image_platform(image: LabImage) -> str:
    return image.platform or f"linux/{image.target_arch}"


def _bake(images: list[LabImage], bases: str, work_dir: pathlib.Path, log_path: pathlib.Path) -> None:
    override = work_dir / "bake-override.json"
    override.write_text(json.dumps(bake_overrides(images, bases), indent=2))
    command = [
        "docker",
        "buildx",
        "bake",
        "-f",
        str(COMPOSE_FILE),
        "-f",
        str(override),
        "--load",
        "--progress",
        "plain",
        *(image.service for image in images),
    ]
    _run_build(command, log_path, {"BUILD_NETWORK": "none"} if bases == "local" else {})


def _docker_build(image: LabImage, bases: str, log_path: pathlib.Path) -> None:
    args = [x for key, value in image.build_args(bases).items() for x in ("--build-arg", f"{key}={value}")]
    network = ["--network", "none"] if bases == "local" else []
    command = [
        "docker",
        "build",
        "-f",
        str(image.dockerfile),
        "-t",
        image.tag,
        *args,
        "--platform",
        image_platform(image),
        *network,
        str(image.lab.directory),
    ]
    _run_build(command, log_path, {"DOCKER_BUILDKIT": "1"})


def _run_build(command: list[str], log_path: pathlib.Path, extra_env: dict[str, str]) -> None:
    import os

    with log_path.open("a") as log:
        log.write(f"$ {' '.join(command)}\n")
        log.flush()
        try:
            done = subprocess.run(
                command,
                stdout=log,
                stderr=subprocess.STDOUT,
                timeout=BUILD_TIMEOUT_S,
                env={**os.environ, **extra_env},
                cwd=REPO_ROOT,
            )
        except subprocess.TimeoutExpired as e:
            raise BuildError(f"the image build took over {BUILD_TIMEOUT_S} s", f"log: {log_path}") from e
    if done.returncode != 0:
        lines = log_path.read_text(errors="replace").splitlines()
        errors = [line for line in lines if "ERROR" in line or "error:" in line.lower()]
        raise BuildError(
            f"the image build failed: {(errors or lines or ['no output'])[-1].strip()}", f"full log: {log_path}"
        )
