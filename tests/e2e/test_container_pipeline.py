"""End to end in containers: local base images (mmdebstrap), the lab images built by the builder the harness finds
(harness/containers/builder.py) with a Docker CLI that refuses to build without the Buildx plugin first on PATH, as on
a machine with a Docker 23+ CLI and no plugin; then the `containers` profile with the Docker backend: one cell per lab
runtime (.NET, Node and C++) in a pinned, network-less container, and the Native AOT cold start.

Skipped where no Docker engine answers, unless JSONLAB_REQUIRE_DOCKER=1 (CI sets it: there the test must run)."""

import json
import os
import pathlib
import re
import shutil
import subprocess
import sys

import pytest

from harness.config.lab.labs import load_labs
from harness.containers.engine import find_engine
from harness.model.arch import host_arch
from tests.e2e.run_rows import disturbed_past_replacements, read_rows, standing, undisturbed

REPO = pathlib.Path(__file__).resolve().parents[2]
ENGINE, WHY = find_engine()

if ENGINE is None and os.environ.get("JSONLAB_REQUIRE_DOCKER") == "1":
    pytest.fail(f"JSONLAB_REQUIRE_DOCKER=1 but {WHY}", pytrace=False)
pytestmark = pytest.mark.skipif(ENGINE is None, reason=f"no Docker engine: {WHY}")


#: Debian's docker.io CLI, which builds with BuildKit on its own: where it is installed, the images must build through
#: it even when a CLI that refuses comes first on PATH.
DISTRIBUTION_CLI = pathlib.Path("/usr/bin/docker")
#: A Docker 23+ CLI without the Buildx plugin: no `buildx`, and `build` refused while BuildKit is on; everything else
#: is the real CLI's.
REFUSING_CLI = """#!/bin/sh
case "$1" in
  buildx) echo "docker: 'buildx' is not a docker command." >&2; exit 1;;
  build) if [ "$DOCKER_BUILDKIT" != 0 ]; then
      echo "ERROR: BuildKit is enabled but the buildx component is missing or broken." >&2; exit 1
    fi;;
esac
exec {real} "$@"
"""


@pytest.fixture(scope="module")
def refusing_path(tmp_path_factory):
    """PATH with the refusing CLI first, where Debian's CLI can stand in; else PATH as it is."""
    real = shutil.which("docker")
    if not DISTRIBUTION_CLI.is_file() or real is None:
        return os.environ["PATH"]
    folder = tmp_path_factory.mktemp("refusing-cli")
    (folder / "docker").write_text(REFUSING_CLI.format(real=real))
    (folder / "docker").chmod(0o755)
    return f"{folder}{os.pathsep}{os.environ['PATH']}"


def _harness(*args, timeout=3600, path=None):
    env = {**os.environ, "PATH": path} if path else None
    done = subprocess.run(
        [sys.executable, "-m", "harness", *args], cwd=REPO, capture_output=True, text=True, timeout=timeout, env=env
    )
    assert done.returncode == 0, f"harness {' '.join(args)} failed:\n{done.stderr[-4000:]}"
    return done


@pytest.fixture(scope="module")
def images(refusing_path):
    _harness("local-bases")
    return _harness("images", "--bases", "local", path=refusing_path)


@pytest.fixture(scope="module")
def container_run(images, tmp_path_factory):
    results = tmp_path_factory.mktemp("results")
    done = _harness(
        "run",
        "--profile",
        "containers",
        "--backend",
        "docker",
        "--bases",
        "local",
        "--results-dir",
        str(results),
        "--no-calibration",
    )
    assert "backend: docker" in done.stderr
    return pathlib.Path(done.stdout.strip().splitlines()[-1])


def _inspect(tag):
    return json.loads(
        subprocess.run(["docker", "image", "inspect", tag], capture_output=True, text=True, check=True).stdout
    )[0]


def test_the_images_were_built_by_a_cli_that_builds_and_carry_their_identity(images, refusing_path):
    dotnet = load_labs()["dotnet"]
    how = images.stderr
    if refusing_path != os.environ["PATH"]:
        assert f"with {DISTRIBUTION_CLI} build with BuildKit, one image at a time" in how, how
        images_built = re.findall(r"^image (\d+)/(\d+) (\S+): built after ", how, re.M)
        assert images_built and all(total == str(len(images_built)) for _, total, _ in images_built), how
    else:
        assert ("docker buildx bake" in how) == (ENGINE.buildx_version is not None), how
    for runtime in dotnet.runtime_names:
        info = _inspect(f"jsonlab/dotnet:{runtime}")
        labels = info["Config"]["Labels"]
        assert (
            labels["jsonlab.runtime"] == runtime
            and labels["jsonlab.runtime-version"] == dotnet.runtimes[runtime].version
        )
        assert "Newtonsoft.Json=13.0.4" in labels["jsonlab.libraries"].split(",")
        assert len(labels["org.opencontainers.image.revision"]) >= 40 and labels["jsonlab.base-digest"].startswith(
            "sha256:"
        )
        assert info["Config"]["User"] == "10001:10001"
    node = load_labs()["reference-node"]
    for runtime in node.runtime_names:
        info = _inspect(f"jsonlab/reference-node:{runtime}")
        labels = info["Config"]["Labels"]
        assert labels["jsonlab.lab"] == "reference-node" and labels["jsonlab.runtime"] == runtime
        assert "mitata=1.0.34" in labels["jsonlab.libraries"].split(",") and info["Config"]["User"] == "10001:10001"


def test_one_cell_per_runtime_ran_pinned_in_its_own_image(container_run):
    # The machine's noise is not this test's business (tests/e2e/run_rows.py): a disturbed process is replaced, and a
    # cell whose replacements are spent keeps a 'disturbed' row, which still ran pinned in its image.
    rows = standing(read_rows(container_run))
    labs = load_labs()
    for lab in ("dotnet", "reference-node", "cpp"):
        assert {r["runtime_requested"] for r in rows if r["lab"] == lab} >= set(labs[lab].runtime_names), lab
    for row in rows:
        assert row["status"] == "ok" or disturbed_past_replacements(row), row
        assert row["backend"] == "docker" and row["image"] == f"jsonlab/{row['lab']}:{row['runtime_requested']}"
        assert row["image_id"].startswith("sha256:") and row["image_id"] == _inspect(row["image"])["Id"]
        assert row["cpuset_effective"] == row["cpuset"], "the CPU set read back inside the container"
        assert row["emulated"] is False and row["arch"] == host_arch()
        assert row["runtime_version"] == labs[row["lab"]].runtimes[row["runtime_requested"]].version
    steady = [r for r in rows if r["measure"] != "cold"]
    assert steady and all(
        0 < r["lab_cpu_s"] <= r["duration_s"] and r["cpu_other_ms"] is not None for r in steady
    ), "the lab's CPU time, counted by the container's shell"
    cold = [r for r in rows if r["measure"] == "cold"]
    assert {r["runtime_requested"] for r in cold} >= {"10.0.12-aot"} and all(r["peak_rss_bytes"] > 0 for r in cold)
    environment = json.loads((container_run / "environment.json").read_text())
    assert environment["backend"] == "docker" and environment["container_engine"].startswith("Docker engine ")
    where = environment["labs"]["dotnet@10.0.12"]["where"]
    assert where["image_labels"]["jsonlab.runtime"] == "10.0.12" and where["image_size_bytes"] > 0
    packages = where["image_apt_packages"]  # every Debian package of the image with its version
    assert isinstance(packages, dict) and packages.get("libc6", "").startswith("2.") and "hyperfine" in packages
    assert f"libc6={packages['libc6']}" in where["image_labels"]["jsonlab.apt-packages"].split(), "and as a label"


@pytest.fixture(scope="module")
def pipelined_run(images, tmp_path_factory):
    """Write-up 001's group under the paired-pipelined design in containers: each process started on the harness's CPU
    in a cell container that holds both CPUs, then moved inside it to the lab's."""
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("the paired-pipelined design warms each process beside the lab's CPU: it needs two")
    results = tmp_path_factory.mktemp("pipelined")
    done = _harness(
        *("run", "--profile", "smoke", "--design", "paired-pipelined", "--backend", "docker", "--bases", "local"),
        *("--experiment", "001", "--benchmark", "single-stj-default", "--benchmark", "single-newtonsoft"),
        *("--runtime", "10.0.12", "--results-dir", str(results), "--no-calibration"),
    )
    return pathlib.Path(done.stdout.strip().splitlines()[-1])


def test_a_pipelined_run_in_containers_hands_each_process_to_the_lab_cpu(pipelined_run):
    steady = [r for r in standing(read_rows(pipelined_run)) if r["measure"] == "steady"]
    assert steady and {r["design"] for r in steady} == {"paired-pipelined"}
    for row in steady:
        assert row["status"] in ("ok", "unverified") or disturbed_past_replacements(row), row
        assert row["backend"] == "docker" and row["cpuset_effective"] == row["cpuset"], "read back after the move"
        assert row["rewarm_ms"] is not None and row["handover_wait_ms"] is not None, "the hand-over, from process.json"
        assert 0 < row["lab_cpu_s"] <= row["duration_s"], "the lab CPU's time, from the move on"


def _runs_arm64_under_qemu() -> bool:
    entry = pathlib.Path("/proc/sys/fs/binfmt_misc/qemu-aarch64")
    return host_arch() == "x64" and entry.is_file() and entry.read_text().startswith("enabled")


@pytest.mark.skipif(
    not _runs_arm64_under_qemu(), reason="no qemu-aarch64 binfmt handler here (qemu-user-static, binfmt-support)"
)
def test_the_arm64_image_verifies_and_runs_a_cell_under_emulation(images, tmp_path):
    # The feed here serves a linux-arm64 runtime pack for .NET 10 only; the SDK stage cross-publishes on x64. The cell
    # is a
    # cold start (verify, then `once` under hyperfine): BenchmarkDotNet's EngineEventSource fails to initialize under
    # qemu-user (NullReferenceException in its type initializer), so steady-state cells fail there.
    _harness("local-bases", "--base", "jsonlab-local/runtime-deps:bookworm-arm64")
    built = _harness("images", "--bases", "local", "--platform", "linux/arm64", "--runtime", "10.0.12")
    assert "jsonlab/dotnet:10.0.12-arm64" in built.stdout and "arm64" in built.stdout
    done = _harness(
        "run",
        "--profile",
        "containers",
        "--backend",
        "docker",
        "--bases",
        "local",
        "--platform",
        "linux/arm64",
        "--runtime",
        "10.0.12",
        "--benchmark",
        "cold-ser-stj-sourcegen",
        "--results-dir",
        str(tmp_path),
        "--no-calibration",
    )
    assert "under emulation: functional checks only" in done.stderr
    run_dir = pathlib.Path(done.stdout.strip().splitlines()[-1])
    rows = undisturbed(read_rows(run_dir))
    assert rows and all(r["status"] == "ok" for r in rows), rows
    for row in rows:
        assert row["emulated"] is True and row["arch"] == "arm64" and row["image"] == "jsonlab/dotnet:10.0.12-arm64"
        assert (
            row["verification_status"] == "passed"
            and row["cpuset_effective"] == row["cpuset"]
            and row["measure"] == "cold"
        )
    assert _inspect("jsonlab/dotnet:10.0.12-arm64")["Architecture"] == "arm64"
