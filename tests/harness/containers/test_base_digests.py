"""Pinning upstream base images by digest, with the registry answered by a stand-in (no network here)."""

import subprocess

import pytest

from harness.containers import base_digests
from harness.containers.base_digests import base_references, pin, resolve_digest, unpinned
from harness.model.defaults import REPO_ROOT
from harness.model.errors import BuildError

DIGEST_A = "sha256:" + "a" * 64
DIGEST_B = "sha256:" + "b" * 64

DOCKERFILE = (
    """# bases
ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0.100-noble
ARG RUNTIME_DEPS_IMAGE=mcr.microsoft.com/dotnet/runtime-deps:10.0-noble@sha256:"""
    + "0" * 64
    + """
FROM ${SDK_IMAGE} AS build
ARG RUNTIME=10.0.12
"""
)


def test_the_shipped_dockerfiles_name_their_bases_as_build_arguments():
    refs = base_references(
        [REPO_ROOT / "lab" / "dotnet" / "Dockerfile", REPO_ROOT / "lab" / "reference-node" / "Dockerfile"]
    )
    assert {(r.dockerfile.parent.name, r.argument) for r in refs} == {
        ("dotnet", "SDK_IMAGE"),
        ("dotnet", "RUNTIME_DEPS_IMAGE"),
        ("reference-node", "RUNTIME_DEPS_IMAGE"),
    }


def test_pin_rewrites_every_base_as_tag_at_digest_and_a_second_pin_moves_it(tmp_path):
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(DOCKERFILE)
    assert [r.argument for r in unpinned([dockerfile])] == ["SDK_IMAGE"]
    asked = []
    pin([dockerfile], lambda ref: asked.append(ref) or DIGEST_A)
    assert asked == [
        "mcr.microsoft.com/dotnet/sdk:10.0.100-noble",
        "mcr.microsoft.com/dotnet/runtime-deps:10.0-noble",
    ], "asked by tag"
    text = dockerfile.read_text()
    assert f"ARG SDK_IMAGE=mcr.microsoft.com/dotnet/sdk:10.0.100-noble@{DIGEST_A}\n" in text
    assert f"ARG RUNTIME_DEPS_IMAGE=mcr.microsoft.com/dotnet/runtime-deps:10.0-noble@{DIGEST_A}\n" in text
    assert "ARG RUNTIME=10.0.12" in text and unpinned([dockerfile]) == []
    pin([dockerfile], lambda ref: DIGEST_B)
    assert dockerfile.read_text().count(DIGEST_B) == 2 and DIGEST_A not in dockerfile.read_text()


def test_a_registry_that_fails_part_way_leaves_the_files_as_they_were(tmp_path):
    dockerfile = tmp_path / "Dockerfile"
    dockerfile.write_text(DOCKERFILE)

    def resolve(ref):
        if "runtime-deps" in ref:
            raise BuildError("no registry", "hint")
        return DIGEST_A

    with pytest.raises(BuildError):
        pin([dockerfile], resolve)
    assert dockerfile.read_text() == DOCKERFILE


def test_the_digest_is_read_from_imagetools_and_a_failure_says_why(monkeypatch):
    answer = (
        "Name:      mcr.microsoft.com/dotnet/sdk:10.0.100-noble\n"
        f"MediaType: application/vnd.oci.image.index.v1+json\nDigest:    {DIGEST_A}\n"
    )
    monkeypatch.setattr(base_digests, "docker", lambda *args, **kw: subprocess.CompletedProcess(args, 0, answer, ""))
    assert resolve_digest("mcr.microsoft.com/dotnet/sdk:10.0.100-noble") == DIGEST_A
    monkeypatch.setattr(
        base_digests,
        "docker",
        lambda *args, **kw: subprocess.CompletedProcess(args, 1, "", "ERROR: dial tcp: no such host\n"),
    )
    with pytest.raises(BuildError, match="cannot resolve .*no such host"):
        resolve_digest("mcr.microsoft.com/dotnet/sdk:10.0.100-noble")
