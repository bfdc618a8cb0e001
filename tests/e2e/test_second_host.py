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


def test_one_run_over_two_hosts_keeps_the_first_hosts_rows_when_the_second_engine_is_lost(tmp_path):
    started = _script("start")
    assert started.returncode == 0, started.stderr
    # The engine keeps its images between runs (its data root): without the image, the run must move it there.
    subprocess.run(["docker", "--context", "jsonlab-second", "image", "rm", "-f", "jsonlab/cpp:gcc-12.2.0"])
    results = tmp_path / "results"
    argv = [
        sys.executable,
        "-m",
        "harness",
        "run",
        "--profile",
        "cpp",
        "--benchmark",
        "cpp-parse-nlohmann-canada",
        "--isa",
        "native,scalar",
        "--runtime",
        "gcc-12.2.0",
        "--no-calibration",
        "--results-dir",
        str(results),
        "--run-id",
        "two-hosts",
        "--bases",
        "local",
        "--host",
        "local",
        "--host",
        "second",
    ]
    run = subprocess.Popen(argv, cwd=REPO, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lines = []
    try:
        assert run.stderr is not None
        for line in run.stderr:
            lines.append(line)
            if line.startswith("[second] [") and " round " in line:
                _script("stop")  # the second host's engine goes away in the middle of its measurement
                break
        lines += run.stderr.readlines()
        out, _ = run.communicate(timeout=900)
    finally:
        _script("stop")
    text = "".join(lines)
    assert any(line.startswith("[local] ") for line in lines) and "moved jsonlab/cpp:gcc-12.2.0" in text, text[-3000:]
    run_dir = results / "two-hosts"
    assert out.strip().splitlines()[-1] == str(run_dir.resolve()), text[-3000:]
    hosts = {h["host"]: h for h in json.loads((run_dir / "hosts.json").read_text())["hosts"]}
    assert hosts["local"]["state"] == "done" and hosts["second"]["state"] == "lost", (hosts, text[-3000:])
    assert "its engine stopped answering during the run" in hosts["second"]["lost"]
    local = [json.loads(x) for x in (run_dir / "hosts" / "local" / "results.jsonl").read_text().splitlines()]
    measured = [r for r in local if r["status"] == "ok"]
    assert len(measured) == 24 and all(r["host"] == "local" for r in local), ("2 cells x 2 levels x 6 rounds", local)
    second = [json.loads(x) for x in (run_dir / "hosts" / "second" / "results.jsonl").read_text().splitlines()]
    assert second and all(r["host"] == "second" for r in second)
    failed = [r for r in second if r["status"] == "failed"]
    assert failed and all("the container engine failed" in r["error"] for r in failed), failed[:1]
    environment = json.loads((run_dir / "hosts" / "second" / "environment.json").read_text())
    assert environment["host"]["context"] == "jsonlab-second" and environment["host"]["name"] == "second"
    report = subprocess.run(
        [sys.executable, "-m", "analysis", "report", str(run_dir)], cwd=REPO, capture_output=True, text=True
    )
    assert report.returncode == 0, report.stderr
    page = (run_dir / "report" / "report.md").read_text()
    assert "over 2 hosts" in page and "| local | done |" in page


def _runs_arm64_under_qemu() -> bool:
    return pathlib.Path("/proc/sys/fs/binfmt_misc/qemu-aarch64").is_file()


@pytest.mark.skipif(not _runs_arm64_under_qemu(), reason="no qemu-aarch64 binfmt handler (qemu-user-static)")
def test_a_host_of_another_platform_gets_its_images_built_here_and_a_rerun_resumes_it(tmp_path):
    # The second engine told to run linux/arm64 images (hosts.toml `platform`) stands in for an arm64 box: the images
    # are built here for arm64 (the feed serves an arm64 runtime pack for .NET 10 only), moved there, its ISA levels
    # planned for arm64, and its rows marked emulated, since that engine is x64 (on an arm64 box they would not be).
    hosts_file = tmp_path / "hosts.toml"
    hosts_file.write_text('[hosts.arm]\ncontext = "jsonlab-second"\nplatform = "linux/arm64"\n')
    env = {**os.environ, "JSONLAB_HOSTS_FILE": str(hosts_file)}
    started = _script("start")
    assert started.returncode == 0, started.stderr
    results = tmp_path / "results"
    argv = [sys.executable, "-m", "harness", "run", "--profile", "containers", "--benchmark", "cold-ser-stj-sourcegen"]
    argv += ["--runtime", "10.0.12", "--isa", "native", "--bases", "local", "--no-calibration"]
    argv += ["--results-dir", str(results), "--run-id", "arm-host", "--host", "arm"]
    try:
        first = subprocess.run(argv, cwd=REPO, env=env, capture_output=True, text=True, timeout=1800)
        again = subprocess.run([*argv, "--resume"], cwd=REPO, env=env, capture_output=True, text=True, timeout=900)
    finally:
        _script("stop")
    assert first.returncode == 0, first.stderr[-3000:]
    assert "[arm] runs linux/arm64 images: building them here" in first.stderr
    run_dir = results / "arm-host"
    hosts = json.loads((run_dir / "hosts.json").read_text())["hosts"]
    assert hosts[0]["platform"] == "linux/arm64" and hosts[0]["state"] == "done"
    rows = [json.loads(x) for x in (run_dir / "hosts" / "arm" / "results.jsonl").read_text().splitlines()]
    measured = [r for r in rows if r["status"] == "ok"]
    assert measured, rows[:1]
    for row in measured:
        assert row["host"] == "arm" and row["arch"] == "arm64" and row["emulated"] is True
        assert row["image"] == "jsonlab/dotnet:10.0.12-arm64" and row["isa_requested"] == "native"
    assert again.returncode == 0, again.stderr[-3000:]
    after = [json.loads(x) for x in (run_dir / "hosts" / "arm" / "results.jsonl").read_text().splitlines()]
    assert [r for r in after if r["status"] == "ok"] == measured, "the rerun resumed: finished cells not measured again"
