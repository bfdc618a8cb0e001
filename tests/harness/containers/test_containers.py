"""Containers without an engine: compose.yaml, the docker run command line, path mapping, the NuGet seed, local bases,
bake overrides and backend selection. The end-to-end container test (tests/e2e/test_container_pipeline.py) runs them
for real where a Docker engine answers."""

import dataclasses
import json
import pathlib
import re
import shutil
import subprocess

import pytest

import harness.backends as backends
from harness.backends.base import CellRequest
from harness.backends.container_commands import map_paths
from harness.backends.docker import DockerBackend
from harness.backends.place import contract_mounts, request_mounts
from harness.config.lab.labs import load_labs
from harness.containers import bases, cells, image_build, images
from harness.containers.bases import DOCKER_ARCH_HOST
from harness.containers.builder import Builder, BuilderProbe
from harness.containers.compose import compose_services, render_compose
from harness.containers.engine import Engine
from harness.containers.image_build import bake_overrides
from harness.containers.images import LabImage, library_versions_label
from harness.containers.isolation import CONTAINER_ISOLATION
from harness.containers.seed import locked_packages, make_seed
from harness.model.cells import Cell, JobSettings
from harness.model.defaults import REPO_ROOT
from harness.model.errors import BuildError
from harness.session.processes.rows import cpuset_mismatch

ENGINE = Engine("20.10.24", "amd64", BuilderProbe(Builder("bake", "/usr/bin/docker", "v0.10.5"), ()))


@pytest.fixture(scope="module")
def dotnet():
    return load_labs()["dotnet"]


def test_the_committed_compose_file_is_generated_from_the_labs(dotnet):
    assert (REPO_ROOT / "compose.yaml").read_text() == render_compose(
        load_labs()
    ), "run `just compose` and commit compose.yaml"


def test_every_runtime_is_a_locked_down_service_for_both_platforms(dotnet):
    services = compose_services({"dotnet": dotnet})["services"]
    assert set(services) == {f"dotnet-{r.replace('.', '-')}" for r in dotnet.runtime_names}
    for name, service in services.items():
        assert re.fullmatch(r"[a-zA-Z0-9_-]+", name), "bake target names allow no dots"
        assert service["network_mode"] == "none" and service["read_only"] is True and service["cap_drop"] == ["ALL"]
        assert service["security_opt"] == ["no-new-privileges:true"] and service["user"] == "10001:10001"
        assert service["cpuset"] == "${LAB_CPUSET:-1}" and service["mem_limit"]
        assert service["pids_limit"] == 512 and service["ulimits"]["nofile"] == {"soft": 4096, "hard": 4096}
        assert "./datasets:/datasets:ro" in service["volumes"]
        assert service["build"]["platforms"] == ["linux/amd64", "linux/arm64"] == service["x-bake"]["platforms"]
    legacy = services["dotnet-3-1-3"]
    assert (
        legacy["build"]["args"]["TFM"] == "netcoreapp3.1"
        and legacy["environment"]["COMPlus_TC_DelaySingleProcMultiplier"] == "1"
    )
    assert services["dotnet-10-0-12-aot"]["build"]["args"]["LOCK_FILE"] == "packages.aot.lock.json"


@pytest.mark.parametrize("lab_name", ["dotnet", "reference-node"])
def test_each_dockerfile_declares_every_build_argument_and_pulls_no_frontend(lab_name):
    lab = load_labs()[lab_name]
    text = (lab.directory / "Dockerfile").read_text()
    declared = set(re.findall(r"^ARG (\w+)", text, re.MULTILINE))
    image = LabImage(lab.for_runtime())
    assert set(image.build_args("local")) <= declared
    assert not re.search(r"^#\s*syntax=", text, re.MULTILINE), "a syntax line pulls a frontend image from a registry"
    assert "USER 10001:10001" in text and "FROM ${RUNTIME_DEPS_IMAGE} AS lab" in text


def test_local_bases_switch_to_the_offline_nuget_configuration(dotnet):
    build = dotnet.for_runtime("8.0.0")
    local, upstream = LabImage(build).build_args("local"), LabImage(build).build_args("upstream")
    assert (
        local["SDK_IMAGE"] == f"jsonlab-local/dotnet-sdk:bookworm-{DOCKER_ARCH_HOST}"
        and local["NUGET_CONFIG"] == "docker/NuGet.seed.config"
    )
    assert "SDK_IMAGE" not in upstream and "NUGET_CONFIG" not in upstream
    assert (dotnet.directory / local["NUGET_CONFIG"]).is_file()
    labels = {bases: LabImage(build).labels(bases) for bases in ("local", "upstream")}
    assert labels["local"]["jsonlab.inputs"] != labels["upstream"]["jsonlab.inputs"], "bases are inputs"
    assert "Newtonsoft.Json=13.0.4" in labels["local"]["jsonlab.libraries"].split(",")


def test_library_versions_come_from_the_builds_own_lock_target(dotnet):
    legacy = library_versions_label(dotnet.for_runtime("3.1.3")).split(",")
    assert "BenchmarkDotNet=0.14.0" in legacy and not any(v.startswith("SpanJson=") for v in legacy)
    assert "BenchmarkDotNet=0.15.8" in library_versions_label(dotnet.for_runtime("9.0.20")).split(",")


def test_bake_overrides_carry_tags_arguments_and_one_platform(dotnet):
    build = dotnet.for_runtime("10.0.12")
    override = bake_overrides([LabImage(build)], "local")
    target = override["target"]["dotnet-10-0-12"]
    assert target["tags"] == ["jsonlab/dotnet:10.0.12"] and target["args"]["NUGET_CONFIG"] == "docker/NuGet.seed.config"
    assert target["platforms"] == [f"linux/{DOCKER_ARCH_HOST}"] and target["args"]["RUNTIME"] == "10.0.12"
    assert target["labels"]["jsonlab.runtime"] == "10.0.12" and "jsonlab.inputs" in target["labels"]
    json.dumps(override)


def _request(tmp_path, lab):
    cell = Cell(
        "001", "b", "g", "b", "dotnet", "stj-default", "simple-models-1", "serialize", "native", runtime=lab.runtime
    )
    return CellRequest(
        lab,
        cell,
        tmp_path / "datasets",
        tmp_path / "out",
        tmp_path / "cell.log",
        JobSettings(),
        {"DOTNET_EnableAVX2": "0"},
        "1",
        60,
    )


def test_a_cell_runs_as_docker_run_of_its_image_with_the_isolation_and_mapped_paths(tmp_path, dotnet):
    build = dotnet.for_runtime("3.1.3")
    request = _request(tmp_path, build)
    launch = DockerBackend(set(), "local", ENGINE).launch(
        build, [*build.command, *request.lab_args()], request.switches, "1", request_mounts(request)
    )
    argv = launch.argv
    assert argv[:2] == ["docker", "run"] and "--rm" in argv
    for flag in CONTAINER_ISOLATION.run_flags():
        assert flag in argv
    assert argv[argv.index("--cpuset-cpus") + 1] == "1" and argv[argv.index("--network") + 1] == "none"
    assert argv[argv.index("--pids-limit") + 1] == "512" and argv[argv.index("--ulimit") + 1] == "nofile=4096:4096"
    assert f"type=bind,source={(tmp_path / 'datasets').resolve()},target=/datasets,readonly" in argv
    assert f"type=bind,source={(tmp_path / 'out').resolve()},target=/out" in argv
    env = {argv[i + 1] for i, a in enumerate(argv) if a == "--env"}
    assert {
        "DOTNET_EnableAVX2=0",
        "DOTNET_SYSTEM_GLOBALIZATION_INVARIANT=1",
        "COMPlus_TC_DelaySingleProcMultiplier=1",
    } <= env
    image_at = argv.index("jsonlab/dotnet:3.1.3")
    assert (
        argv[image_at - 2 : image_at] == ["--entrypoint", "build/3.1.3/JsonLab"]
        and argv[argv.index("--workdir") + 1] == "/lab"
    )
    inner = argv[image_at + 1 :]
    assert (
        inner[:1] == ["run"]
        and inner[inner.index("--datasets") + 1] == "/datasets"
        and inner[inner.index("--out") + 1] == "/out"
    )
    assert str(tmp_path) not in " ".join(inner)
    assert (tmp_path / "out").stat().st_mode & 0o777 == 0o777, "the container's non-root user writes the output folder"


def test_a_cells_lab_runs_under_a_shell_that_leaves_its_cpu_time_in_the_output_folder(tmp_path, dotnet):
    build = dotnet.for_runtime("10.0.12")
    request = _request(tmp_path, build)
    backend = DockerBackend(set(), "local", ENGINE, container_per_process=True)
    launch = backend.launch_cell(request, [*build.command, *request.lab_args()], account_cpu=True)
    argv = launch.argv
    assert launch.cpu_times_file == request.out_dir / backend.CPU_TIMES_FILE
    inner = argv[argv.index("jsonlab/dotnet:10.0.12") - 2 :]
    assert inner[:2] == ["--entrypoint", "/bin/sh"]
    script, lab = inner[3:5], inner[5:]
    assert script == ["-c", '"$@"; status=$?; times > /out/.lab-cpu-times; exit $status']
    assert lab[:3] == ["sh", "build/10.0.12/JsonLab", "run"]


def test_host_paths_inside_hyperfine_commands_are_mapped_too(tmp_path):
    mounts = {tmp_path / "datasets": ("/datasets", True), tmp_path / "out": ("/out", False)}
    once = f"build/x/JsonLab once --datasets {tmp_path / 'datasets'} --variant v"
    assert map_paths(once, mounts) == "build/x/JsonLab once --datasets /datasets --variant v"
    assert map_paths(str(tmp_path / "out" / "hyperfine.json"), mounts) == "/out/hyperfine.json"


def test_the_contracts_path_options_become_mounts():
    mounts = contract_mounts(["verify", "--datasets", "/d", "--variant", "v", "--out", "/o"])
    assert mounts == {pathlib.Path("/d"): ("/datasets", True), pathlib.Path("/o"): ("/out", False)}


def test_a_process_that_saw_other_cpus_voids_its_cell():
    assert cpuset_mismatch("1", "1") is None and cpuset_mismatch("1", None) is None
    assert cpuset_mismatch("0-1", "0,1") is None and cpuset_mismatch("1", "1;1") is None
    assert "ran on CPUs 0-1, not the requested 1" in cpuset_mismatch("1", "0-1")
    assert cpuset_mismatch("1", "1;0") is not None


def test_auto_picks_host_with_the_reason_when_no_engine_answers(monkeypatch):
    monkeypatch.setattr(backends, "find_engine", lambda: (None, "no Docker engine answers (connection refused)"))
    backend, notice = backends.select_backend("auto", set())
    assert (
        backend.name == "host"
        and notice == "backend: host (no Docker engine answers (connection refused); --backend docker needs one)"
    )
    monkeypatch.setattr(backends, "find_engine", lambda: (ENGINE, "a Docker engine answers"))
    backend, notice = backends.select_backend("auto", set())
    assert (
        backend.name == "docker"
        and "Docker engine 20.10.24 (amd64); images: docker buildx bake (Buildx v0.10.5" in notice
    )
    refused = (
        "/usr/local/bin/docker build with BuildKit: ERROR: BuildKit is enabled but the buildx component is missing"
    )
    unbuildable = Engine("28.2.2", "amd64", BuilderProbe(None, (refused,)))
    monkeypatch.setattr(backends, "find_engine", lambda: (unbuildable, "a Docker engine answers"))
    backend, notice = backends.select_backend("auto", set())
    assert backend.name == "host" and refused in notice and "apt-get install docker.io" in notice
    backend, notice = backends.select_backend("auto", set(), without_image=("reference-node",))
    assert backend.name == "host" and "lab reference-node has no image" in notice
    with pytest.raises(Exception, match="unknown backend"):
        backends.select_backend("podman", set())


def _package(root: pathlib.Path, name: str, version: str) -> None:
    folder = root / name / version
    folder.mkdir(parents=True)
    (folder / f"{name}.{version}.nupkg").write_bytes(b"PK")


def test_the_seed_holds_the_locked_packages_and_the_framework_packs(tmp_path, dotnet):
    lock = tmp_path / "lab" / "src" / "packages.lock.json"
    lock.parent.mkdir(parents=True)
    lock.write_text(
        json.dumps(
            {
                "version": 1,
                "dependencies": {
                    "net8.0": {
                        "Newtonsoft.Json": {"type": "Direct", "resolved": "13.0.4"},
                        "JsonLab.Models": {"type": "Project"},
                    },
                    "net8.0/linux-x64": {"Bogus": {"type": "Transitive", "resolved": "34.0.2"}},
                },
            }
        )
    )
    assert locked_packages(lock) == {("newtonsoft.json", "13.0.4"), ("bogus", "34.0.2")}
    packages = tmp_path / "packages"
    for name, version in [
        ("newtonsoft.json", "13.0.4"),
        ("newtonsoft.json", "12.0.1"),
        ("bogus", "34.0.2"),
        ("microsoft.netcore.app.runtime.linux-x64", "8.0.0"),
        ("unrelated", "1.0.0"),
    ]:
        _package(packages, name, version)
    container = dotnet.container.__class__(
        **{**dotnet.container.__dict__, "offline_lock_files": ("src/packages.lock.json",)}
    )
    lab = dotnet.__class__(**{**dotnet.__dict__, "directory": tmp_path / "lab", "container": container})
    assert make_seed(lab, tmp_path / "seed", packages) == 3
    held = {p.relative_to(tmp_path / "seed").as_posix() for p in (tmp_path / "seed").glob("*/*")}
    assert held == {"newtonsoft.json/13.0.4", "bogus/34.0.2", "microsoft.netcore.app.runtime.linux-x64/8.0.0"}
    (packages / "bogus" / "34.0.2" / "bogus.34.0.2.nupkg").unlink()
    (packages / "bogus" / "34.0.2").rmdir()
    with pytest.raises(BuildError, match="bogus 34.0.2"):
        make_seed(lab, tmp_path / "seed2", packages)


def test_local_bases_are_made_from_this_hosts_apt_sources(monkeypatch):
    known = bases.load_local_bases()
    sdk = known["jsonlab-local/dotnet-sdk:bookworm-amd64"]
    monkeypatch.setattr(bases, "host_dotnet_root", lambda: pathlib.Path("/usr/share/dotnet"))
    command = bases.mmdebstrap_command(sdk, pathlib.Path("/tmp/rootfs.tar"))
    assert command[:4] == ["mmdebstrap", "--variant=minbase", "--architectures=amd64", "--format=tar"]
    assert command[-2:] == ["bookworm", "/tmp/rootfs.tar"]
    assert "--customize-hook=copy-in /usr/share/dotnet /usr/share" in command
    assert any("gcc" in part for part in command if part.startswith("--include="))
    assert known["jsonlab-local/runtime-deps:bookworm-arm64"].platform == "linux/arm64/v8"
    dotnet = load_labs()["dotnet"].for_runtime("10.0.12")
    for platform in ("linux/amd64", "linux/arm64"):
        assert set(LabImage(dotnet, platform).local_bases().values()) <= set(
            known
        ), "lab.toml names only bases local-bases.toml builds"


def test_the_fresh_machine_base_holds_the_hosts_sdk_node_and_registry_settings_and_nothing_set_up_installs(
    monkeypatch, tmp_path
):
    fresh = bases.load_local_bases()["jsonlab-local/fresh-machine:bookworm-amd64"]
    npmrc = tmp_path / ".npmrc"
    npmrc.write_text("fund=false\n")
    fresh = dataclasses.replace(fresh, host_files=(str(npmrc), str(tmp_path / "absent.config")))
    monkeypatch.setattr(bases, "host_dotnet_root", lambda: pathlib.Path("/usr/share/dotnet"))
    monkeypatch.setattr(bases, "host_node", lambda: pathlib.Path("/usr/bin/node"))
    command = bases.mmdebstrap_command(fresh, pathlib.Path("/tmp/rootfs.tar"))
    assert "--customize-hook=copy-in /usr/bin/node /usr/bin" in command
    assert "--customize-hook=copy-in /usr/lib/node_modules/npm /usr/lib/node_modules" in command
    assert f"--customize-hook=copy-in {npmrc} {tmp_path}" in command and not any("absent.config" in c for c in command)
    included = next(c for c in command if c.startswith("--include=")).removeprefix("--include=").split(",")
    assert "python3" in included and "git" in included
    # what the quick start's set-up must install itself stays out, or the check would prove nothing
    assert not {"hyperfine", "python3-pandas", "docker.io", "gcc", "mmdebstrap"} & set(included)


def test_a_docker_run_builds_on_local_bases_wherever_the_lab_names_them(dotnet):
    backend = DockerBackend(set(), "auto", ENGINE)
    assert backend.bases_for(dotnet.for_runtime("10.0.12")) == "local"
    assert DockerBackend(set(), "upstream", ENGINE).bases_for(dotnet.for_runtime("10.0.12")) == "upstream"


def test_image_names_and_services(dotnet):
    image = LabImage(dotnet.for_runtime("10.0.12-aot"))
    assert image.tag == "jsonlab/dotnet:10.0.12-aot" and image.service == "dotnet-10-0-12-aot"
    foreign = "arm64" if DOCKER_ARCH_HOST == "amd64" else "amd64"
    other = LabImage(dotnet.for_runtime("10.0.12"), f"linux/{foreign}")
    assert other.foreign and other.tag == f"jsonlab/dotnet:10.0.12-{foreign}" and other.service == "dotnet-10-0-12"
    assert other.local_bases()["RUNTIME_DEPS_IMAGE"] == f"jsonlab-local/runtime-deps:bookworm-{foreign}"
    assert other.local_bases()["SDK_IMAGE"] == f"jsonlab-local/dotnet-sdk:bookworm-{DOCKER_ARCH_HOST}"
    assert bake_overrides([other], "local")["target"]["dotnet-10-0-12"]["platforms"] == [f"linux/{foreign}"]
    assert not LabImage(dotnet.for_runtime("10.0.12"), f"linux/{DOCKER_ARCH_HOST}").foreign
    assert images.COMPOSE_FILE == REPO_ROOT / "compose.yaml"


def test_an_offline_image_build_restores_each_runtime_without_compiling(tmp_path, dotnet):
    aot = dotnet.for_runtime("10.0.12-aot").container.offline_restore
    assert (
        aot[:2] == ("dotnet", "restore")
        and "-p:LabAot=true" in aot
        and "-p:NuGetLockFilePath=packages.aot.lock.json" in aot
    )
    assert "-p:LabRuntimeVersion=8.0.0" in dotnet.for_runtime("8.0.0").container.offline_restore
    container = dotnet.container.__class__(
        **{**dotnet.container.__dict__, "offline_restore": ("sh", "-c", "echo restored > marker")}
    )
    lab = dotnet.__class__(
        **{**dotnet.__dict__, "directory": tmp_path, "container": container, "build": ("sh", "-c", "exit 9")}
    )
    image_build.prepare_context(lab, "local", tmp_path / "restore.log")
    assert (tmp_path / "marker").read_text() == "restored\n", "the restore ran, not the (failing) build"
    failing = container.__class__(
        **{**container.__dict__, "offline_restore": ("sh", "-c", "echo 'x : error NU1101: no such package'; exit 1")}
    )
    with pytest.raises(BuildError, match="offline restore .* failed: x : error NU1101"):
        image_build.prepare_context(
            dotnet.__class__(**{**lab.__dict__, "container": failing}), "local", tmp_path / "restore2.log"
        )


class _FakeDocker:
    """Records docker CLI calls; `docker run --detach` succeeds unless told otherwise, `inspect` says stopped."""

    def __init__(self, start_ok: bool = True):
        self.calls: list[tuple[str, ...]] = []
        self.start_ok = start_ok

    def __call__(self, *args, timeout=None, input_text=None):
        self.calls.append(args)
        ok = args[0] != "run" or self.start_ok
        out = "false\n" if args[0] == "inspect" else "id\n"
        return subprocess.CompletedProcess(
            ["docker", *args], 0 if ok else 125, out, "" if ok else "Error: no such image"
        )

    def of(self, verb):
        return [c for c in self.calls if c[0] == verb]


def test_cell_processes_exec_into_one_long_lived_pinned_container_per_image_and_cpu_set(tmp_path, dotnet, monkeypatch):
    fake = _FakeDocker()
    monkeypatch.setattr(cells, "docker", fake)
    build = dotnet.for_runtime("10.0.12")
    backend = DockerBackend(set(), "local", ENGINE)
    raw = tmp_path / "raw"
    first = dataclasses.replace(_request(tmp_path, build), out_dir=raw / "cell-a" / "round-1", raw_root=raw)
    second = dataclasses.replace(first, out_dir=raw / "cell-b" / "round-1", switches={"DOTNET_EnableAVX512F": "0"})
    a = backend.launch_cell(first, [*build.command, *first.lab_args()], account_cpu=True)
    b = backend.launch_cell(second, [*build.command, *second.lab_args()], account_cpu=True)
    assert len(fake.of("run")) == 1, "the second cell reuses the container"
    start = fake.of("run")[0]
    for flag in CONTAINER_ISOLATION.run_flags():
        assert flag in start
    assert start[start.index("--cpuset-cpus") + 1] == "1" and start[-4:] == (
        "--entrypoint",
        "sleep",
        "jsonlab/dotnet:10.0.12",
        "infinity",
    )
    assert f"type=bind,source={raw.resolve()},target=/out" in start, "the run's raw folder is mounted once"
    assert (
        a.container == b.container
        and a.argv[:2] == ["docker", "exec"]
        and a.argv[a.argv.index("--workdir") + 1] == "/lab"
    )
    inner = b.argv[b.argv.index(b.container) + 1 :]
    assert (
        inner[:2] == ["/bin/sh", "-c"]
        and "mktemp -d" in inner[2]
        and "times > /out/cell-b/round-1/.lab-cpu-times" in inner[2]
    )
    assert (
        inner[inner.index("--out") + 1] == "/out/cell-b/round-1" and inner[inner.index("--datasets") + 1] == "/datasets"
    )
    env = {b.argv[i + 1] for i, x in enumerate(b.argv) if x == "--env"}
    assert "DOTNET_EnableAVX512F=0" in env and not any(
        x.startswith("DOTNET_EnableAVX2") for x in env
    ), "switches are per exec"
    assert (raw / "cell-b" / "round-1").stat().st_mode & 0o777 == 0o777
    other_cpu = backend.launch_cell(dataclasses.replace(first, cpuset="0"), ["x"])
    assert other_cpu.container != a.container and len(fake.of("run")) == 2
    backend.close()
    assert {c[-1] for c in fake.of("rm")} == {a.container, other_cpu.container}


def test_a_dead_cell_container_is_replaced_and_one_that_cannot_start_falls_back_to_docker_run(
    tmp_path, dotnet, monkeypatch
):
    fake = _FakeDocker()
    monkeypatch.setattr(cells, "docker", fake)
    build = dotnet.for_runtime("10.0.12")
    backend = DockerBackend(set(), "local", ENGINE)
    request = dataclasses.replace(_request(tmp_path, build), out_dir=tmp_path / "raw" / "c", raw_root=tmp_path / "raw")
    name = backend.launch_cell(request, ["x"]).container
    backend.cell_containers.forget_if_stopped(name)  # the fake engine says it stopped
    assert backend.launch_cell(request, ["x"]).container not in (None, name)
    fake.start_ok = False
    backend.close()
    fallback = backend.launch_cell(request, ["x"])
    assert fallback.container is None and fallback.argv[:2] == ["docker", "run"]
    per_process = DockerBackend(set(), "local", ENGINE, container_per_process=True)
    assert per_process.launch_cell(request, ["x"]).argv[:2] == ["docker", "run"]


def test_the_node_lab_is_an_image_per_version_for_the_build_machines_architecture_and_its_sources_rebuild_it(tmp_path):
    node = load_labs()["reference-node"]
    service = compose_services(load_labs())["services"]["reference-node-26-10-0"]
    assert service["build"]["args"] == {"RUNTIME": "26.10.0", "NODE_PACKAGE": "node-26-x64"}
    assert service["build"]["platforms"] == ["linux/amd64"] and service["network_mode"] == "none"
    build = node.for_runtime("24.21.0")
    assert build.container.prepare == ("sh", "scripts/build.sh", "24.21.0")
    assert "mitata=1.0.34" in library_versions_label(build).split(",")
    copy = tmp_path / "reference-node"
    shutil.copytree(node.directory, copy, ignore=shutil.ignore_patterns("node_modules", "build"))
    moved = dataclasses.replace(build, directory=copy)
    before = LabImage(moved).inputs_fingerprint("local")
    (copy / "src" / "variants.js").write_text((copy / "src" / "variants.js").read_text() + "\n// changed\n")
    assert LabImage(moved).inputs_fingerprint("local") != before, "a changed source rebuilds the image"
