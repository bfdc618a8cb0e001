"""The image labels: computed once in the harness (LabImage.labels) for every lab, attached by the builder (`docker
build --label`, the bake target's `labels`, compose.yaml's identity labels), never copied into a Dockerfile; their
names and values are those the Dockerfiles' LABEL blocks wrote."""

import re
import subprocess

import pytest

from harness.config.lab.labs import load_labs
from harness.containers import image_build, images
from harness.containers.builder import Builder
from harness.containers.compose import compose_services
from harness.containers.images import LabImage

#: Every label an image carries when it is built, by name (the Dockerfiles' LABEL blocks had exactly these).
LABEL_NAMES = {
    "org.opencontainers.image.title",
    "org.opencontainers.image.revision",
    "jsonlab.lab",
    "jsonlab.runtime",
    "jsonlab.runtime-version",
    "jsonlab.libraries",
    "jsonlab.base-digest",
    "jsonlab.inputs",
}


@pytest.fixture
def labs(monkeypatch):
    monkeypatch.setattr(images, "git_state", lambda: {"git_commit": "c0ffee" * 7, "git_dirty": True})
    monkeypatch.setattr(images, "image_reference", lambda name: f"digest-of:{name}")
    return load_labs()


def test_every_label_with_the_values_the_dockerfiles_wrote(labs):
    """dotnet and reference-node: the values their LABEL blocks made from the same build arguments."""
    for name, version_arg in (("dotnet", "VERSION"), ("reference-node", "RUNTIME")):
        lab = labs[name]
        for runtime in lab.runtime_names:
            image = LabImage(lab.for_runtime(runtime))
            args, labels = image.build_args("local"), image.labels("local")
            assert set(labels) == LABEL_NAMES
            assert labels["org.opencontainers.image.title"] == f"jsonlab-{name}" and labels["jsonlab.lab"] == name
            assert labels["org.opencontainers.image.revision"] == "c0ffee" * 7 + "-dirty"
            assert labels["jsonlab.runtime"] == args["RUNTIME"] == runtime
            assert labels["jsonlab.runtime-version"] == args[version_arg]
            assert labels["jsonlab.libraries"] == images.library_versions_label(image.lab) != ""
            assert labels["jsonlab.base-digest"] == f"digest-of:{args['RUNTIME_DEPS_IMAGE']}"
            assert labels["jsonlab.inputs"] == image.inputs_fingerprint("local")
            assert image.labels("upstream")["jsonlab.base-digest"] == "unknown", "no local base: not known"


def test_the_cpp_labs_runtime_version_is_its_compilers_version(labs):
    labels = LabImage(labs["cpp"].for_runtime("gcc-12.2.0-native")).labels("upstream")
    assert labels["jsonlab.runtime"] == "gcc-12.2.0-native" and labels["jsonlab.runtime-version"] == "12.2.0"
    assert (
        labels["jsonlab.libraries"]
        == "libbenchmark-dev=?,libsimdjson-dev=?,libssl-dev=?,nlohmann-json3-dev=?,rapidjson-dev=?"
    )


@pytest.mark.parametrize("lab_name", ["cpp", "dotnet", "reference-node"])
def test_no_dockerfile_copies_the_label_block(lab_name):
    text = (load_labs()[lab_name].directory / "Dockerfile").read_text()
    assert not re.search(r"^\s*LABEL\b", text, re.MULTILINE), "the harness attaches the labels (LabImage.labels)"
    for name in ("LAB_COMMIT", "LAB_INPUTS", "LIBRARY_VERSIONS", "BASE_IMAGE_DIGEST"):
        assert name not in text


def test_a_plain_build_passes_each_label(labs, monkeypatch, tmp_path):
    ran = []
    monkeypatch.setattr(image_build, "_run_build", lambda build, *rest: ran.append(build.command))
    image = LabImage(labs["reference-node"].for_runtime("24.21.0"))
    image_build._docker_build(Builder("build", "docker", "20.10"), image, "upstream", tmp_path / "log", print, "x")
    command = ran[0]
    passed = dict(command[i + 1].split("=", 1) for i, word in enumerate(command) if word == "--label")
    assert passed == image.labels("upstream") and command[-1] == str(image.lab.directory)


def test_bake_gets_every_label_and_compose_the_identity(labs):
    image = LabImage(labs["dotnet"].for_runtime("10.0.12-aot"))
    target = image_build.bake_overrides([image], "local")["target"]["dotnet-10-0-12-aot"]
    assert target["labels"] == image.labels("local") and not set(target["args"]) & {"LAB_COMMIT", "LIBRARY_VERSIONS"}
    service = compose_services(labs)["services"]["dotnet-10-0-12-aot"]
    assert (
        service["build"]["labels"]
        == image.identity_labels()
        == {
            "org.opencontainers.image.title": "jsonlab-dotnet",
            "jsonlab.lab": "dotnet",
            "jsonlab.runtime": "10.0.12-aot",
            "jsonlab.runtime-version": "10.0.12",
        }
    )


def _fake_docker(calls, listing):
    def docker(*args, timeout=None):
        calls.append(args)
        if args[0] == "run":
            return subprocess.CompletedProcess(args, 0, listing, "")
        return subprocess.CompletedProcess(args, 0, "container-id\n" if args[0] == "create" else "", "")

    return docker


@pytest.mark.parametrize("lab_name", ["cpp", "reference-node"])
def test_the_apt_label_is_committed_and_debian_libraries_get_the_images_versions(labs, monkeypatch, lab_name):
    calls: list[tuple] = []
    listing = "libc6=2.36-9\nlibsimdjson-dev=3.1.5-1\nrapidjson-dev=1.1.0+dfsg2-7.1\n"
    monkeypatch.setattr(images, "docker", _fake_docker(calls, listing))
    image = LabImage(labs[lab_name].for_runtime())
    assert "3 apt packages labelled" in images.label_apt_packages(image)
    commit = next(c for c in calls if c[0] == "commit")
    changes = [commit[i + 1] for i, word in enumerate(commit) if word == "--change"]
    assert (
        changes[0] == 'LABEL jsonlab.apt-packages="libc6=2.36-9 libsimdjson-dev=3.1.5-1 rapidjson-dev=1.1.0+dfsg2-7.1"'
    )
    if lab_name == "cpp":
        assert changes[1:] == [
            'LABEL jsonlab.libraries="libbenchmark-dev=?,libsimdjson-dev=3.1.5-1,libssl-dev=?,nlohmann-json3-dev=?,'
            'rapidjson-dev=1.1.0+dfsg2-7.1"'
        ]
    else:
        assert changes[1:] == [], "a lock file's versions are labelled at build time"
    assert calls[-1][:2] == ("rm", "-f")
