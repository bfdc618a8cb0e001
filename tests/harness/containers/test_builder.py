"""Which docker CLI builds the lab images, found by asking each to build a probe image (harness/containers/builder.py),
and a watched build's progress lines (harness/containers/build_watch.py). Fake CLIs only: no engine is needed; the
end-to-end container test builds the real images with a refusing CLI first on PATH."""

import os
import pathlib
import stat
import sys

import pytest

from harness.builds.watched_process import WatchedBuild, run_watched
from harness.containers.builder import FIX, PROBE_TAG, candidate_clis, describe_for_doctor, find_builder
from harness.containers.engine import Engine
from harness.containers.image_build import require_builder
from harness.model.errors import BuildError

#: What a Docker CLI from 23 on prints when BuildKit is on and the Buildx plugin is absent.
REFUSAL = "ERROR: BuildKit is enabled but the buildx component is missing or broken."


def _cli(folder: pathlib.Path, body: str) -> pathlib.Path:
    """A fake `docker` in `folder` that logs its arguments and environment switch, then runs `body` (sh)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "docker"
    path.write_text(f'#!/bin/sh\necho "$0 BUILDKIT=$DOCKER_BUILDKIT $*" >> "{folder.parent}/calls.log"\n{body}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return path


#: A CLI 23+ without the plugin: no `buildx`, BuildKit refused, the classic builder works.
REFUSING = f"""case "$1" in
  buildx) echo "docker: 'buildx' is not a docker command." >&2; exit 1;;
  build) if [ "$DOCKER_BUILDKIT" = 0 ]; then echo "Successfully built"; exit 0; fi; echo "{REFUSAL}" >&2; exit 1;;
  *) exit 0;;
esac"""
#: A CLI that builds with BuildKit on its own (Debian's 20.10).
BUILDING = """case "$1" in
  buildx) exit 1;;
  version) echo "20.10.24+dfsg1";;
  *) exit 0;;
esac"""
#: A CLI with a working Buildx plugin.
WITH_BUILDX = """case "$1" in
  buildx) if [ "$2" = version ]; then echo "github.com/docker/buildx v0.10.5 86bdced"; fi; exit 0;;
  *) exit 0;;
esac"""


def test_a_cli_that_refuses_buildkit_first_on_path_gives_way_to_one_that_builds(tmp_path, monkeypatch):
    refusing = _cli(tmp_path / "first", REFUSING)
    building = _cli(tmp_path / "second", BUILDING)
    monkeypatch.setenv("PATH", f"{refusing.parent}{os.pathsep}{building.parent}{os.pathsep}{os.environ['PATH']}")
    clis = candidate_clis(distribution=())
    assert clis[:2] == [str(refusing), str(building)]
    probe = find_builder(clis=clis[:2])
    assert probe.builder is not None
    assert (probe.builder.method, probe.builder.cli, probe.builder.version) == (
        "build",
        str(building),
        "20.10.24+dfsg1",
    )
    assert probe.builder.command("build", "-t", "x") == [str(building), "build", "-t", "x"]
    assert probe.builder.environment == {"DOCKER_BUILDKIT": "1"}
    assert probe.tried == (f"{refusing}: no Buildx plugin", f"{refusing} build with BuildKit: {REFUSAL}")
    calls = (tmp_path / "calls.log").read_text()
    assert f"{building} BUILDKIT= image rm -f {PROBE_TAG}" in calls  # the probe image is removed again
    assert "describe" not in probe.builder.describe() and "one image at a time" in probe.builder.describe()


def test_the_buildx_plugin_of_the_cli_on_path_bakes(tmp_path):
    cli = _cli(tmp_path / "bin", WITH_BUILDX)
    probe = find_builder(clis=[str(cli)])
    assert probe.builder is not None and probe.builder.method == "bake" and probe.builder.version == "v0.10.5"
    assert probe.builder.command("bake", "-f", "compose.yaml") == [str(cli), "buildx", "bake", "-f", "compose.yaml"]
    assert probe.builder.environment == {}
    assert f"{cli} BUILDKIT= buildx build --load -t {PROBE_TAG}" in (tmp_path / "calls.log").read_text()


def test_no_builder_says_what_each_cli_answered_and_why_the_classic_builder_cannot_stand_in(tmp_path):
    cli = _cli(tmp_path / "bin", REFUSING)
    probe = find_builder(clis=[str(cli)])
    assert probe.builder is None
    assert probe.tried[-1] == f"{cli}'s classic builder builds, but the lab's Dockerfiles need BuildKit (RUN --mount)"
    engine = Engine("28.2.2", "amd64", probe)
    with pytest.raises(BuildError, match="cannot be built here") as raised:
        require_builder(engine)
    assert raised.value.hint == FIX and REFUSAL in str(raised.value)
    lines = describe_for_doctor(True, probe)
    assert lines[0] == "images: no docker CLI here builds the lab images:" and FIX in lines[-1]
    assert describe_for_doctor(False, probe)[0].startswith("images: no Docker engine answers")
    assert find_builder(clis=[]).tried == ("no docker CLI on PATH",)


def test_one_program_counts_once_however_many_paths_reach_it(tmp_path):
    cli = _cli(tmp_path / "bin", BUILDING)
    (tmp_path / "link").mkdir()
    (tmp_path / "link" / "docker").symlink_to(cli)
    (tmp_path / "empty").mkdir()
    path = os.pathsep.join(str(tmp_path / name) for name in ("link", "empty", "bin"))
    assert candidate_clis(path, distribution=(str(cli),)) == [str(tmp_path / "link" / "docker")]


def test_a_watched_build_says_its_start_its_progress_at_least_every_interval_and_its_end(tmp_path):
    log = tmp_path / "build.log"
    script = "import time\nfor step in (1, 2):\n    print(f'#{step} [build {step}/2] RUN step {step}', flush=True)\n"
    script += "    time.sleep(0.3)\nprint('#3 naming to docker.io/jsonlab/dotnet:8.0.0 done', flush=True)\n"
    lines: list[str] = []
    build = WatchedBuild(
        [sys.executable, "-c", script], "image 1/2 jsonlab/dotnet:8.0.0", ["jsonlab/dotnet:8.0.0", "x"]
    )
    code, seconds = run_watched(build, log, {}, tmp_path, 30, lines.append, every_s=0.1)
    assert code == 0 and seconds >= 0.6
    assert lines[0] == f"image 1/2 jsonlab/dotnet:8.0.0: building (log {log})"
    assert lines[-1].startswith("image 1/2 jsonlab/dotnet:8.0.0: built after ")
    beats = lines[1:-1]
    assert len(beats) >= 3 and all(" so far, " in beat for beat in beats)
    assert any("last: #1 [build 1/2] RUN step 1" in beat or "last: #2" in beat for beat in beats)
    assert log.read_text().startswith(f"$ {sys.executable} -c ")


def test_a_build_that_overruns_its_time_is_stopped(tmp_path):
    lines: list[str] = []
    build = WatchedBuild([sys.executable, "-c", "import time; time.sleep(30)"], "image 1/1 slow", ["slow"])
    code, _ = run_watched(build, tmp_path / "log", {}, tmp_path, 0.2, lines.append, every_s=0.1)
    assert code is None and lines[-1].startswith("image 1/1 slow: stopped after")


def test_the_plan_counts_every_image_and_base_when_no_engine_answers_and_says_the_minutes():
    from harness.config.lab.labs import load_labs
    from harness.containers.build_estimate import estimate_builds

    labs = {lab.target: lab for lab in (load_labs()["dotnet"].for_runtime(r) for r in ("10.0.12", "10.0.12-aot"))}
    estimate = estimate_builds(labs, engine_answers=False)
    assert estimate.images == ("jsonlab/dotnet:10.0.12", "jsonlab/dotnet:10.0.12-aot") and estimate.total_images == 2
    assert set(estimate.bases) == {
        "jsonlab-local/dotnet-sdk:bookworm-amd64",
        "jsonlab-local/runtime-deps:bookworm-amd64",
    }
    assert estimate.seconds == 35 + 155 + 55 + 25, "lab.toml build_estimate_s per image, local-bases.toml estimate_s"
    text = estimate.describe()
    assert (
        text.startswith("images: 2 of 2 and 2 local base(s) to build if the image store is empty")
        and "about 4.5 min" in text
    )
