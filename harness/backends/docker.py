"""Docker backend: each cell is a fresh container of the lab build's image (jsonlab/<lab>:<runtime>), pinned with
--cpuset-cpus, without network, on a read-only root filesystem, as a non-root user (harness/containers/isolation.py).

It runs exactly the commands the native backend runs (the lab's contract verbs, hyperfine around `once` for cold
starts), inside the container: the contract's folders are bind-mounted and their paths rewritten, the same ISA
switches and lab environment are passed with -e. The CPU set is read back from inside every process (env.json,
`once --report-rss`) and a row whose process saw other CPUs fails."""

from __future__ import annotations

import pathlib
import shlex
import uuid
from typing import Any

from harness.backends.base import CellRequest
from harness.backends.native import Launch, Mounts, NativeBackend, _Process
from harness.containers.engine import Engine, docker, find_engine
from harness.containers.images import BASES, LabImage, build_images, debian_arch, inspect_image, is_current
from harness.containers.bases import DOCKER_ARCH_HOST, ensure_local_bases, image_exists
from harness.containers.isolation import CONTAINER_ISOLATION, mount_flag
from harness.errors import BuildError, HarnessError, MissingToolError
from harness.labs import LabSpec
from harness.noise import parse_shell_times


class DockerBackend(NativeBackend):
    """Runs every lab command in a container of its build's image."""

    name = "docker"
    #: Where a cell's shell wrapper leaves its `times` (in the cell's output folder, mounted read-write).
    CPU_TIMES_FILE = ".lab-cpu-times"

    def __init__(self, switch_names: set[str], bases: str = "auto", engine: Engine | None = None, platform: str | None = None) -> None:
        super().__init__(switch_names)
        self.platform = platform
        if engine is None:
            engine, reason = find_engine()
            if engine is None:
                raise MissingToolError(f"the docker backend needs a Docker engine: {reason}",
                                       "start one (README: Containers) or run with --backend native")
        self.engine = engine
        if bases not in ("auto", *BASES):
            raise HarnessError(f"unknown base choice {bases!r}", f"one of auto, {', '.join(BASES)}")
        self.bases = bases
        self._identity: dict[str, dict[str, Any]] = {}
        self._details: dict[str, dict[str, Any]] = {}

    # -- images -------------------------------------------------------------------------------------------

    def image(self, lab: LabSpec) -> LabImage:
        return LabImage(lab, self.platform)

    @property
    def emulates(self) -> bool:
        """True when the images are for another architecture than this host's (run under QEMU: functional checks only)."""
        return self.platform is not None and debian_arch(self.platform) != DOCKER_ARCH_HOST

    def bases_for(self, lab: LabSpec) -> str:
        """'local' when asked, or (auto) when every local base the lab names is present here; else 'upstream'."""
        if self.bases != "auto":
            return self.bases
        local = list(self.image(lab).local_bases().values()) if lab.container else []
        return "local" if local and all(image_exists(name) for name in local) else "upstream"

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        """Builds the build's image unless one with the same inputs exists (a missing local base is built first)."""
        image = self.image(lab)
        bases = self.bases_for(lab)
        if is_current(image, bases):
            log_path.write_text(f"image {image.tag} is current (label jsonlab.inputs); not rebuilt\n")
            return
        if bases == "local":
            ensure_local_bases(list(image.local_bases().values()), log_path)
        work = log_path.parent / "image-build"
        work.mkdir(parents=True, exist_ok=True)
        how = build_images([image], self.engine, bases, work, log_path)
        with log_path.open("a") as log:
            log.write(f"built {image.tag} with {how}, {bases} bases\n")

    def identity(self, lab: LabSpec) -> dict[str, Any]:
        if lab.target not in self._identity:
            image = self.image(lab)
            info = inspect_image(image.tag)
            if info is None:
                raise BuildError(f"image {image.tag} does not exist", "build it: just images (or run without --no-build)")
            self._identity[lab.target] = {"backend": self.name, "image": image.tag, "image_id": info.image_id}
            self._details[lab.target] = {"image_labels": info.labels, "image_size_bytes": info.size_bytes,
                                         "image_architecture": info.architecture, "engine": self.engine.describe()}
        return self._identity[lab.target]

    def details(self, lab: LabSpec) -> dict[str, Any]:
        """For environment.json: the identity plus the image's labels, size and architecture, and the engine."""
        return {**self.identity(lab), **self._details[lab.target]}

    # -- commands -----------------------------------------------------------------------------------------

    def launch(self, lab: LabSpec, argv: list[str], switches: dict[str, str], cpuset: str | None, mounts: Mounts) -> Launch:
        """`docker run` of the image with the isolation settings, the mounts, the CPU set and the lab's environment;
        host paths in argv become the mounted paths."""
        spec = lab.container
        if spec is None:
            raise HarnessError(f"lab {lab.name} has no [container] table, so it cannot run in Docker", "run it with --backend native")
        environment = {**lab.environment, **switches}
        flags = ["--rm", "--name", f"jsonlab-{uuid.uuid4().hex[:12]}", *CONTAINER_ISOLATION.run_flags(), "--workdir", spec.workdir]
        if cpuset:
            flags += ["--cpuset-cpus", cpuset]
        for key, value in sorted(environment.items()):
            flags += ["--env", f"{key}={value}"]
        for host, (inside, read_only) in mounts.items():
            if not read_only:
                _writable_by_lab_user(host)
            flags += mount_flag(str(host.resolve()), inside, read_only)
        inner = [_map_paths(arg, mounts) for arg in argv]
        image = self.image(lab)
        if image.foreign:
            flags += ["--platform", self.platform]
        return Launch(["docker", "run", *flags, "--entrypoint", inner[0], image.tag, *inner[1:]], None, None)

    def cell_command(self, request: CellRequest) -> list[str]:
        """The lab command under a POSIX shell that writes its children's CPU times (`times`) when the lab ends: the
        harness's own child is the docker CLI, whose rusage says nothing of the lab's CPU time."""
        times_file = shlex.quote(str(request.out_dir / self.CPU_TIMES_FILE))
        script = f'"$@"; status=$?; times > {times_file}; exit $status'
        return ["/bin/sh", "-c", script, "sh", *super().cell_command(request)]

    def lab_cpu(self, process: _Process) -> float | None:
        """The lab's CPU seconds as its container's shell counted them (None when the container was killed)."""
        times_file = process.request.out_dir / self.CPU_TIMES_FILE
        try:
            return parse_shell_times(times_file.read_text())
        except OSError:
            return None

    def _stop(self, process: _Process) -> None:
        """Stops the container itself (killing the docker CLI would leave it running)."""
        name = process.popen.args[process.popen.args.index("--name") + 1]
        docker("kill", name, timeout=30)
        process.popen.kill()


def _map_paths(arg: str, mounts: Mounts) -> str:
    """Rewrites host folders in one argument (also inside hyperfine's command strings) to their mount points."""
    for host, (inside, _) in sorted(mounts.items(), key=lambda item: -len(str(item[0]))):
        for form in {str(host), str(host.resolve())}:
            arg = arg.replace(form, inside)
    return arg


def _writable_by_lab_user(folder: pathlib.Path) -> None:
    """The container's non-root user writes the cell's output folder."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o777)

