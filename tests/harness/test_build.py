import pathlib

import pytest

from harness.build import build_lab, explain_build_failure
from harness.errors import BuildError
from harness.labs import LabSpec


def test_a_package_missing_from_the_feed_is_explained():
    output = "error NU1102: Unable to find package BenchmarkDotNet with version (>= 0.15.8)"
    assert "not served by the configured feed" in explain_build_failure(output)


def test_a_stale_lock_file_is_explained():
    assert "packages.lock.json does not match" in explain_build_failure("error NU1004: The packages lock file is inconsistent")


def test_an_unknown_failure_points_at_the_log():
    assert "read the build log" in explain_build_failure("something odd")


def test_a_failing_build_raises_with_the_first_error_and_advice(tmp_path):
    lab = LabSpec("broken", tmp_path, "C#", "bdn", (), ("sh", "-c", "echo 'x.csproj : error NU1102: Unable to find package Foo'; exit 1"), ("true",), {})
    with pytest.raises(BuildError, match="failed to build: x.csproj : error NU1102") as error:
        build_lab(lab, tmp_path / "build.log")
    assert "not served by the configured feed" in error.value.hint
    assert (tmp_path / "build.log").read_text().startswith("$ sh -c")


def test_a_missing_build_tool_is_explained(tmp_path: pathlib.Path):
    lab = LabSpec("broken", tmp_path, "C#", "bdn", (), ("no-such-compiler-here",), ("true",), {})
    with pytest.raises(BuildError, match="cannot run the build"):
        build_lab(lab, tmp_path / "build.log")
