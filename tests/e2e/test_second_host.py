"""A second Docker engine on this machine standing in for a remote host (hosts.toml `second`): started by
containers/dockerd.sh under its own socket, data root and context, an image moved there with `docker save | load`,
its CPU read in a container there, and its loss reported as unreachable.

Needs root, dockerd and an engine answering; skipped otherwise, unless JSONLAB_REQUIRE_DOCKER=1 (CI sets it)."""

import json
import os
import pathlib
import shutil
import subprocess
import sys
import tarfile

import pytest

from harness.containers.engine import find_engine

REPO = pathlib.Path(__file__).resolve().parents[2]
ENGINE, WHY = find_engine()
CAN = ENGINE is not None and os.geteuid() == 0 and shutil.which("dockerd") is not None
if not CAN and os.environ.get("JSONLAB_REQUIRE_DOCKER") == "1":
    pytest.fail(f"JSONLAB_REQUIRE_DOCKER=1 but a second engine cannot start here ({WHY})", pytrace=False)
pytestmark = pytest.mark.skipif(not CAN, reason=f"needs root, dockerd and a Docker engine ({WHY})")

#: A tiny image made from this machine's own sh and cat (and their libraries): enough to read /proc in a container.
PROBE_IMAGE = "jsonlab-local/host-probe-test:1"


def _libraries_of(program: str) -> set[str]:
    done = subprocess.run(["ldd", shutil.which(program) or program], capture_output=True, text=True)
    return {part for line in done.stdout.splitlines() for part in line.split() if part.startswith("/")}


@pytest.fixture(scope="module")
def probe_image(tmp_path_factory):
    tar_path = tmp_path_factory.mktemp("image") / "rootfs.tar"
    with tarfile.open(tar_path, "w", dereference=True) as tar:  # symlinks stored as the files they point to
        for library in sorted(_libraries_of("sh") | _libraries_of("cat")):
            tar.add(library, arcname=library.lstrip("/"))
        for program in ("sh", "cat"):
            tar.add(shutil.which(program), arcname=f"bin/{program}")
    subprocess.run(["docker", "import", str(tar_path), PROBE_IMAGE], check=True, capture_output=True)
    yield PROBE_IMAGE
    subprocess.run(["docker", "image", "rm", "-f", PROBE_IMAGE], capture_output=True)


def _script(action: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["bash", str(REPO / "containers" / "dockerd.sh"), action, "second"],
        capture_output=True,
        text=True,
        timeout=120,
    )


def _hosts(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "harness", "hosts", *args], cwd=REPO, capture_output=True, text=True, timeout=600
    )


def test_a_second_engine_is_probed_through_its_context_and_its_loss_is_reported(probe_image):
    started = _script("start")
    assert started.returncode == 0, started.stderr
    try:
        done = _hosts("--host", "local", "--host", "second", "--transfer", probe_image, "--json")
        assert done.returncode == 0, done.stderr
        local, second = json.loads(done.stdout)
        assert local["reachable"] and second["reachable"]
        assert second["context"] == "jsonlab-second" and second["arch"] == local["arch"]
        assert second["cpu_model"] and second["cpu_model"] == local["cpu_model"], "the same machine behind both"
        assert set(second["isa_levels"]) == set(local["isa_levels"])
        assert f"second: moved {probe_image}" in done.stderr
    finally:
        subprocess.run(["docker", "--context", "jsonlab-second", "image", "rm", "-f", probe_image], capture_output=True)
        stopped = _script("stop")
    assert stopped.returncode == 0, stopped.stderr
    lost = _hosts("--host", "second")
    assert lost.returncode == 1 and "second: unreachable" in lost.stdout
