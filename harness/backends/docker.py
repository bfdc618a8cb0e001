"""Docker backend: every lab process runs in a container of the lab build's image (jsonlab/<lab>:<runtime>), pinned with
--cpuset-cpus, without network, on a read-only root filesystem, as a non-root user (harness/containers/isolation.py).

A cell's processes `docker exec` into one long-lived container per image and CPU set (harness/containers/cells.py),
which spares each process a container start and stop on the pinned CPU (measured here: `docker run` of /bin/true
182 ms, `docker exec` 48 ms); each is still a fresh process with its own scratch folder. `--container-per-process`
starts a fresh container for every process instead. Probes (env, list, verify) always get a container of their own.

It runs exactly the commands the host backend runs (the lab's contract verbs, hyperfine around `once` for cold
starts), inside the container: the contract's folders are bind-mounted and their paths rewritten, the same ISA
switches and lab environment are passed with -e. The CPU set is read back from inside every process (env.json,
`once --report-rss`) and a row whose process saw other CPUs fails."""

from __future__ import annotations

import dataclasses
import pathlib
import time
import uuid

from harness.backends.base import CellRequest
from harness.backends.container_commands import accounted, env_flags, map_paths, writable_by_lab_user
from harness.backends.place import Launch, Mounts, request_mounts
from harness.backends.processes import ProcessBackend
from harness.builds.watched_process import say_on_stderr
from harness.config.lab.labs import LabSpec
from harness.containers.bases import ensure_local_bases, image_exists
from harness.containers.cells import CellContainers
from harness.containers.disk_space import require_space
from harness.containers.engine import Engine, docker, find_engine
from harness.containers.image_build import build_images, require_builder
from harness.containers.images import (
    BASES,
    LabImage,
    apt_packages,
    auto_bases,
    build_seconds,
    container_spec,
    debian_arch,
    inspect_image,
    is_current,
)
from harness.containers.isolation import CONTAINER_ISOLATION, DATASETS_MOUNT, OUT_MOUNT, mount_flag
from harness.model.arch import DEBIAN_ARCH, engine_arch
from harness.model.cpusets import format_cpuset, parse_cpuset
from harness.model.errors import BuildError, HarnessError, MissingToolError
from harness.model.folder.environment_record import BuildWhere
from harness.model.folder.stored_names import DOCKER
from harness.planning.pinning import move_process


class DockerBackend(ProcessBackend):
    """Runs every lab command in a container of its build's image: the Place (harness/backends/processes.py) of its lab
    processes is a container."""

    name = DOCKER
    #: Where a cell's shell wrapper leaves its `times` (in the cell's output folder, mounted read-write).
    CPU_TIMES_FILE = ".lab-cpu-times"

    def __init__(
        self,
        switch_names: set[str],
        bases: str = "auto",
        engine: Engine | None = None,
        platform: str | None = None,
        container_per_process: bool = False,
    ) -> None:
        super().__init__()  # switch_names: the container's environment starts empty, no stray switch can leak in
        self.platform = platform
        self.cell_containers = None if container_per_process else CellContainers()
        if engine is None:
            engine, reason = find_engine()
            if engine is None:
                raise MissingToolError(
                    f"the docker backend needs a Docker engine: {reason}",
                    "start one (just docker-up; docs/containers.md) or run with --backend host",
                )
        self.engine = engine
        if bases not in ("auto", *BASES):
            raise HarnessError(f"unknown base choice {bases!r}", f"one of auto, {', '.join(BASES)}")
        self.bases = bases
        self._identity: dict[str, BuildWhere] = {}  # lab build -> its identity, and its details (the identity and more)
        self._details: dict[str, BuildWhere] = {}

    # -- images -------------------------------------------------------------------------------------------

    in_containers = True

    def image(self, lab: LabSpec) -> LabImage:
        return LabImage(lab, self.platform)

    def image_tag(self, lab: LabSpec) -> str | None:
        return self.image(lab).tag

    def engine_description(self) -> str | None:
        return self.engine.describe()

    @property
    def emulates(self) -> bool:
        """True when the images are for another architecture than this host's (run under QEMU: functional checks
        only)."""
        return self.platform is not None and debian_arch(self.platform) != DEBIAN_ARCH[engine_arch()]

    def bases_for(self, lab: LabSpec) -> str:
        """The bases asked for; with 'auto', 'local' wherever the lab names local bases (made here with mmdebstrap from
        this
        host's Debian mirror when missing: no container registry is needed, and none is asked), else 'upstream'. The
        upstream defaults are official images by tag, not pinned by digest (docs/containers.md), so they are no more
        reproducible than local ones, and they need a registry this machine may not reach."""
        return self.bases if self.bases != "auto" else auto_bases(self.image(lab))

    def build(self, lab: LabSpec, log_path: pathlib.Path) -> None:
        """Builds the build's image unless one with the same inputs exists (a missing local base is built first)."""
        self.build_all({lab.target: lab}, log_path.parent, log_path)

    def build_all(self, labs: dict[str, LabSpec], log_dir: pathlib.Path, log_path: pathlib.Path | None = None) -> None:
        """Builds, together (one Buildx bake per kind of base), every image of these lab builds that is missing or has
        other inputs (label jsonlab.inputs); the log says which were current."""
        log_path = log_path or log_dir / "build-images.log"
        log_path.write_text("")
        wanted: dict[str, list[LabImage]] = {}
        for lab in labs.values():
            image, bases = self.image(lab), self.bases_for(lab)
            if is_current(image, bases):
                with log_path.open("a") as log:
                    log.write(f"image {image.tag} is current (label jsonlab.inputs); not rebuilt\n")
            else:
                wanted.setdefault(bases, []).append(image)
        if wanted:
            require_builder(self.engine)  # no builder: stop here, before any base or image is made
            todo = [image for images in wanted.values() for image in images]
            missing_bases = {b for image in wanted.get("local", []) for b in image.local_bases().values()}
            require_space(len(todo) + sum(not image_exists(b) for b in missing_bases))  # a full disk: stop here too
            seconds = build_seconds(todo)
            say_on_stderr(
                f"images: {len(todo)} to build ({', '.join(image.tag for image in todo)}), about "
                f"{seconds / 60:.0f} min plus any local base missing (log {log_path})"
            )
        for bases, images in wanted.items():
            if bases == "local":
                names = sorted({b for image in images for b in image.local_bases().values()})
                ensure_local_bases(names, log_path, say=say_on_stderr)
            work = log_dir / "image-build"
            work.mkdir(parents=True, exist_ok=True)
            started = time.monotonic()
            how = build_images(images, self.engine, bases, work, log_path)
            line = f"built {', '.join(image.tag for image in images)} with {how}, {bases} bases"
            with log_path.open("a") as log:
                log.write(line + "\n")
            say_on_stderr(f"images: {line} in {time.monotonic() - started:.0f} s")

    def identity(self, lab: LabSpec) -> BuildWhere:
        if lab.target not in self._identity:
            image = self.image(lab)
            info = inspect_image(image.tag)
            if info is None:
                raise BuildError(
                    f"image {image.tag} does not exist", "build it: just images (or run without --no-build)"
                )
            identity: BuildWhere = {"backend": self.name, "image": image.tag, "image_id": info.image_id}
            details = identity.copy()
            details.update(
                {
                    "image_labels": info.labels,
                    "image_size_bytes": info.size_bytes,
                    "image_architecture": info.architecture,
                    "image_apt_packages": apt_packages(image.tag),
                    "engine": self.engine.describe(),
                    "cell_processes": "docker exec into one long-lived container per image and CPU set"
                    if self.cell_containers
                    else "one fresh container per process (--container-per-process)",
                }
            )
            self._identity[lab.target], self._details[lab.target] = identity, details
        return self._identity[lab.target]

    def details(self, lab: LabSpec) -> BuildWhere:
        """For environment.json: the identity plus the image's labels, size and architecture, and the engine."""
        self.identity(lab)  # the image inspected once
        return self._details[lab.target].copy()

    # -- commands -----------------------------------------------------------------------------------------

    def launch_cell(self, request: CellRequest, argv: list[str], account_cpu: bool = False) -> Launch:
        """A cell's process: `docker exec` into the long-lived container of its image and CPU set, which mounts the
        datasets and the run's whole raw-output folder (started on first use); with --container-per-process, or when
        that container cannot start, a `docker run` of its own. With `account_cpu` the lab runs under a shell that
        leaves its CPU times in the cell's output folder (`_accounted`)."""
        lab, mounts = request.lab, self.cell_mounts(request)
        times_file = request.out_dir / self.CPU_TIMES_FILE if account_cpu else None
        cpuset = request.cpuset
        if request.warm_cpuset:  # a process handed over (handover.py): its container holds both, it starts on one
            cpuset = format_cpuset(tuple(sorted({*parse_cpuset(cpuset), *parse_cpuset(request.warm_cpuset)})))
            argv = ["taskset", "-c", request.warm_cpuset, *argv]
        name = None
        if self.cell_containers is not None and lab.container is not None and cpuset:
            image = self.image(lab)
            run_flags = self._container_flags(lab, cpuset, mounts) + (
                ["--platform", self.platform] if image.foreign and self.platform else []
            )
            name = self.cell_containers.ensure(image.tag, cpuset, mounts, run_flags)
        if times_file is not None:
            argv = accounted(argv, times_file, scratch=self.cell_containers is not None)
        interactive = ["--interactive"] if request.warm_cpuset else []  # its `go` comes on standard input
        if name is None:
            launch = self.launch(lab, argv, request.switches, cpuset, mounts)
            launch_argv = [*launch.argv[:2], *interactive, *launch.argv[2:]]
            return dataclasses.replace(launch, argv=launch_argv, cpu_times_file=times_file)
        flags = [
            *interactive,
            "--workdir",
            container_spec(lab).workdir,
            *env_flags({**lab.environment, **request.switches}),
        ]
        return Launch(
            ["docker", "exec", *flags, name, *(map_paths(arg, mounts) for arg in argv)],
            None,
            None,
            container=name,
            cpu_times_file=times_file,
        )

    def cell_mounts(self, request: CellRequest) -> Mounts:
        """The datasets (read-only) and, written, the run's raw-output folder when the request names it (one mount
        serves
        every cell of a long-lived container), else the cell's own output folder."""
        writable_by_lab_user(request.out_dir)
        root = request.raw_root
        if self.cell_containers is None or root is None or not request.out_dir.is_relative_to(root):
            return request_mounts(request)
        return {request.datasets_dir: (DATASETS_MOUNT, True), root: (OUT_MOUNT, False)}

    def _container_flags(self, lab: LabSpec, cpuset: str | None, mounts: Mounts) -> list[str]:
        """The isolation settings, the working folder, the CPU set and the mounts of a lab container."""
        flags = [*CONTAINER_ISOLATION.run_flags(), "--workdir", container_spec(lab).workdir]
        if cpuset:
            flags += ["--cpuset-cpus", cpuset]
        for host, (inside, read_only) in mounts.items():
            if not read_only:
                writable_by_lab_user(host)
            flags += mount_flag(str(host.resolve()), inside, read_only)
        return flags

    def launch(
        self, lab: LabSpec, argv: list[str], switches: dict[str, str], cpuset: str | None, mounts: Mounts
    ) -> Launch:
        """`docker run` of the image with the isolation settings, the mounts, the CPU set and the lab's environment;
        host paths in argv become the mounted paths."""
        spec = lab.container
        if spec is None:
            raise HarnessError(
                f"lab {lab.name} has no [container] table, so it cannot run in Docker", "run it with --backend host"
            )
        flags = [
            "--rm",
            "--name",
            f"jsonlab-{uuid.uuid4().hex[:12]}",
            *self._container_flags(lab, cpuset, mounts),
            *env_flags({**lab.environment, **switches}),
        ]
        inner = [map_paths(arg, mounts) for arg in argv]
        image = self.image(lab)
        if image.foreign and self.platform:  # foreign: a platform was given
            flags += ["--platform", self.platform]
        return Launch(["docker", "run", *flags, "--entrypoint", inner[0], image.tag, *inner[1:]], None, None)

    def stop(self, launch: Launch) -> None:
        """Stops the container the command runs in (killing the docker CLI alone would leave the lab running there): a
        long-lived one is removed with whatever still runs in it (the next cell starts a new one), a container of its
        own is killed."""
        if launch.container is not None:
            if self.cell_containers is not None:
                self.cell_containers.discard(launch.container)
        elif "--name" in launch.argv:
            docker("kill", launch.argv[launch.argv.index("--name") + 1], timeout=30)

    def move(self, launch: Launch, pid: int, cpuset: str) -> None:
        """`taskset -a -p` inside the process's container (`pid` is its id there), which holds both CPU sets."""
        name = launch.container or launch.argv[launch.argv.index("--name") + 1]
        move_process(["docker", "exec", name], pid, cpuset)

    def close(self) -> None:
        """Stops a process warming ahead, and removes the long-lived cell containers."""
        self.stop_warming()
        if self.cell_containers is not None:
            self.cell_containers.close()

    def ended(self, launch: Launch, failed: bool) -> None:
        """After a failed process, a long-lived container that has died is forgotten (the next cell starts one)."""
        if failed and launch.container is not None and self.cell_containers is not None:
            self.cell_containers.forget_if_stopped(launch.container)
