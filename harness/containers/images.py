"""Lab images: one per lab × runtime, built from the lab's Dockerfile (lab.toml [container]).

An image is tagged jsonlab/<lab>:<runtime> and labelled with what produced it (runtime version, library versions, the
lab's git commit, its base image, and the fingerprint of the build inputs: LabImage.labels, which the builder attaches,
so no Dockerfile carries them); an image whose fingerprint matches is reused, so changing one adapter rebuilds only
what the Dockerfile's cache says it must. Builds go through `docker buildx bake` over compose.yaml when the Buildx
plugin is there, plain `docker build` per image otherwise.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import pathlib
from dataclasses import dataclass

from harness.builds.lab_build import build_fingerprint
from harness.config.lab.lab_builds import ContainerSpec
from harness.config.lab.lab_libraries import debian_versions, library_versions
from harness.config.lab.labs import LabSpec
from harness.config.lab.library_builds import safe_name
from harness.containers.bases import DOCKER_ARCH, DOCKER_ARCH_HOST
from harness.containers.engine import docker
from harness.host.environment import git_state
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

#: Repository part of every lab image's tag.
IMAGE_REPOSITORY = "jsonlab"

#: compose.yaml at the repository root: one service per lab × runtime.
COMPOSE_FILE = REPO_ROOT / "compose.yaml"

#: Image label holding the fingerprint of the build inputs.
INPUTS_LABEL = "jsonlab.inputs"
#: Image label listing the lab's libraries, 'Id=version,...' (lab.toml [libraries]).
LIBRARIES_LABEL = "jsonlab.libraries"

#: Base images: "upstream" (the Dockerfile's defaults, pulled from their registry) or "local"
# (each lab's local-bases.toml; harness/containers/bases.py).
BASES = ("upstream", "local")


def container_spec(lab: LabSpec) -> ContainerSpec:
    """The lab's lab.toml [container] table; ConfigError for a lab that has none (it runs on the host backend only)."""
    if lab.container is None:
        raise ConfigError(
            f"lab {lab.name} has no [container] table in its lab.toml",
            "add one (see lab/dotnet/lab.toml) or run it with --backend host",
        )
    return lab.container


@dataclass(frozen=True)
class LabImage:
    """The image of one lab build (a LabSpec from for_runtime) for one platform (None: the engine's own). An image for
    another architecture than this host's is tagged with it (jsonlab/dotnet:10.0.12-arm64): Docker keeps one image per
    tag, and it runs here only under emulation."""

    lab: LabSpec
    platform: str | None = None

    @property
    def target_arch(self) -> str:
        """The Debian architecture the image is for."""
        return debian_arch(self.platform) if self.platform else DOCKER_ARCH_HOST

    @property
    def foreign(self) -> bool:
        return self.target_arch != DOCKER_ARCH_HOST

    def local_bases(self) -> dict[str, str]:
        """lab.toml's local bases for this image: `{target_arch}` is the image's architecture, `{build_arch}` this
        host's
        (the SDK stage runs on the build machine's platform)."""
        return {
            k: v.format(target_arch=self.target_arch, build_arch=DOCKER_ARCH_HOST)
            for k, v in self.container.local_bases.items()
        }

    def __post_init__(self) -> None:
        container_spec(self.lab)  # a lab without a [container] table has no image: ConfigError

    @property
    def container(self) -> ContainerSpec:
        """The lab's [container] table (there is one: __post_init__ checks)."""
        return container_spec(self.lab)

    @property
    def tag(self) -> str:
        return f"{IMAGE_REPOSITORY}/{self.lab.name}:{safe_name(self.lab.runtime or '')}" + (
            f"-{self.target_arch}" if self.foreign else ""
        )

    @property
    def service(self) -> str:
        """The compose service (and Buildx bake target) name: dots are not allowed in bake target names."""
        return f"{self.lab.name}-{safe_name(self.lab.runtime or '')}".replace(".", "-")

    @property
    def dockerfile(self) -> pathlib.Path:
        return self.lab.directory / self.container.dockerfile

    def inputs_fingerprint(self, bases: str) -> str:
        """The lab's build fingerprint, extended by the Dockerfile, its build arguments and the choice of bases."""
        digest = hashlib.sha256((build_fingerprint(self.lab) or "").encode())
        digest.update(self.dockerfile.read_bytes())
        for path in sorted(
            {f for pattern in self.container.inputs for f in self.lab.directory.glob(pattern) if f.is_file()}
        ):
            digest.update(path.relative_to(self.lab.directory).as_posix().encode() + b"\0" + path.read_bytes())
        digest.update(
            json.dumps(self.container.build_args, sort_keys=True).encode() + bases.encode() + self.target_arch.encode()
        )
        if self.lab.libraries is not None:  # what its libraries label is read from
            digest.update(json.dumps(dataclasses.asdict(self.lab.libraries), sort_keys=True).encode())
        return digest.hexdigest()

    def build_args(self, bases: str) -> dict[str, str]:
        """Build arguments for this image: the lab's own, and the local bases and offline NuGet configuration when
        asked."""
        spec = self.container
        args = dict(spec.build_args)
        if bases == "local":
            args.update(self.local_bases())
            if spec.offline_nuget_config:
                args["NUGET_CONFIG"] = spec.offline_nuget_config
        if self.foreign and bases == "local":
            # The feed behind the local seed serves foreign-architecture runtime packs for the newest runtime only.
            args["RESTORE_SCOPE"] = "tfm"
        return args

    def identity_labels(self) -> dict[str, str]:
        """The labels that depend on lab.toml alone (compose.yaml carries them too, for a build by hand)."""
        return {
            "org.opencontainers.image.title": f"{IMAGE_REPOSITORY}-{self.lab.name}",
            "jsonlab.lab": self.lab.name,
            "jsonlab.runtime": self.lab.runtime or "",
            "jsonlab.runtime-version": self.lab.expected_version() or self.lab.runtime or "",
        }

    def labels(self, bases: str) -> dict[str, str]:
        """Every label that says what made this image, for every lab, in one place: the builder attaches them
        (`docker build --label`, the bake target's `labels`), so no Dockerfile copies a LABEL block. In a Dockerfile
        they were build arguments declared after every RUN (an argument in scope is part of a RUN step's cache key, and
        the commit and fingerprint change with every commit); a label passed to the build is in no step's cache key,
        so that concern is gone. The base digest is that of the runtime stage's local base (RUNTIME_DEPS_IMAGE), or
        'unknown'. BuildError when the lab's declared lock file is missing."""
        state = git_state()
        base = self.build_args(bases).get("RUNTIME_DEPS_IMAGE")
        return {
            **self.identity_labels(),
            "org.opencontainers.image.revision": (state["git_commit"] or "unknown")
            + ("-dirty" if state["git_dirty"] else ""),
            LIBRARIES_LABEL: library_versions_label(self.lab),
            "jsonlab.base-digest": image_reference(base) if base else "unknown",
            INPUTS_LABEL: self.inputs_fingerprint(bases),
        }


def auto_bases(image: LabImage) -> str:
    """The bases `--bases auto` builds an image on: 'local' where its lab names local bases (made here with
    mmdebstrap), else 'upstream'."""
    return "local" if image.lab.container and image.local_bases() else "upstream"


def build_seconds(images: list[LabImage]) -> float:
    """The measured seconds these images take to build from an empty image store (lab.toml build_estimate_s)."""
    return sum(float(image.lab.container.build_estimate_s) for image in images if image.lab.container)


def debian_arch(platform: str) -> str:
    """'linux/arm64/v8' → 'arm64'; 'linux/amd64' → 'amd64'."""
    parts = platform.split("/")
    if len(parts) < 2 or parts[0] != "linux" or parts[1] not in DOCKER_ARCH:
        raise ConfigError(
            f"unsupported platform {platform!r}", f"use one of {', '.join('linux/' + a for a in DOCKER_ARCH)}"
        )
    return parts[1]


def library_versions_label(lab: LabSpec) -> str:
    """'Id=version,...' of the packages one build references directly, read as its lab.toml [libraries] declares
    (harness/config/lab/lab_libraries.py); BuildError when a declared lock file is missing."""
    return library_versions(lab.name, lab.directory, lab.libraries)


def image_reference(name: str) -> str:
    """The most exact name of a local image: its repository digest when it came from a registry, else its image id."""
    done = docker("image", "inspect", name, "--format", "{{json .}}", timeout=30)
    if done.returncode != 0:
        return "not present locally"
    info = json.loads(done.stdout)
    return (info.get("RepoDigests") or [None])[0] or info.get("Id", "unknown")


@dataclass(frozen=True)
class ImageInfo:
    """A built image as Docker reports it."""

    tag: str
    image_id: str
    labels: dict[str, str]
    size_bytes: int
    architecture: str


def inspect_image(tag: str, engine_args: tuple[str, ...] = ()) -> ImageInfo | None:
    """The image as an engine has it (this machine's, or another host's: `engine_args` = HostSpec.docker_args());
    None when that engine lacks it."""
    done = docker(*engine_args, "image", "inspect", tag, "--format", "{{json .}}", timeout=30)
    if done.returncode != 0:
        return None
    info = json.loads(done.stdout)
    return ImageInfo(
        tag,
        info["Id"],
        dict((info.get("Config") or {}).get("Labels") or {}),
        int(info.get("Size") or 0),
        info.get("Architecture", "unknown"),
    )


#: Where each lab image lists its Debian packages with their versions (the last line of its apt RUN step).
APT_PACKAGES_FILE = "/etc/jsonlab/apt-packages.txt"


def apt_packages(tag: str, engine_args: tuple[str, ...] = ()) -> dict[str, str] | str:
    """{package: version} of every Debian package in an image, read from APT_PACKAGES_FILE in a container of its own
    (no network); a sentence saying why not when the image has no list (built before it was written) or the container
    cannot start."""
    done = docker(
        *engine_args, "run", "--rm", "--network", "none", "--entrypoint", "cat", tag, APT_PACKAGES_FILE, timeout=60
    )
    if done.returncode != 0:
        return f"not recorded: {(done.stderr.strip().splitlines() or ['no output'])[-1][:200]}"
    packages = dict(line.split("=", 1) for line in done.stdout.splitlines() if "=" in line)
    return packages or "not recorded: the image's list is empty"


#: The label that carries an image's Debian packages ("name=version name=version …"), added after its build.
APT_PACKAGES_LABEL = "jsonlab.apt-packages"


def label_apt_packages(image: LabImage) -> str:
    """Adds APT_PACKAGES_LABEL to a built image: its package list (APT_PACKAGES_FILE) committed as a label onto a
    created, never started, container of it (same layers, the same config and labels, one label more; a Dockerfile
    LABEL cannot hold what a RUN step found); for a lab whose libraries are Debian packages, LIBRARIES_LABEL again, with
    their versions from the same list. Returns what it did, or why not (the run's environment still lists the
    packages)."""
    packages = apt_packages(image.tag)
    if isinstance(packages, str):
        return f"{image.tag}: apt packages {packages}"
    labels = {APT_PACKAGES_LABEL: " ".join(f"{name}={version}" for name, version in sorted(packages.items()))}
    libraries = image.lab.libraries
    if libraries is not None and libraries.format == "debian-packages":  # the declared packages' versions, read here
        labels[LIBRARIES_LABEL] = debian_versions(image.lab.name, image.lab.directory, libraries, packages)
    changes = [x for name, value in labels.items() for x in ("--change", f"LABEL {name}={json.dumps(value)}")]
    created = docker("create", image.tag, timeout=60)
    if created.returncode != 0:
        return f"{image.tag}: apt packages not labelled: {created.stderr.strip()[:200]}"
    container = created.stdout.strip()
    try:
        done = docker("commit", *changes, container, image.tag, timeout=120)
    finally:
        docker("rm", "-f", container, timeout=60)
    if done.returncode != 0:
        return f"{image.tag}: apt packages not labelled: {done.stderr.strip()[:200]}"
    return f"{image.tag}: {len(packages)} apt packages labelled ({APT_PACKAGES_LABEL})"


def is_current(image: LabImage, bases: str) -> bool:
    found = inspect_image(image.tag)
    return found is not None and found.labels.get(INPUTS_LABEL) == image.inputs_fingerprint(bases)
