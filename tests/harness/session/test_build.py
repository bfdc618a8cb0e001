import pathlib

import pytest

from harness.builds.build_failure import explain_build_failure
from harness.builds.lab_build import build_lab
from harness.config.lab.labs import LabSpec
from harness.model.errors import BuildError


def test_a_package_missing_from_the_feed_is_explained():
    output = "error NU1102: Unable to find package BenchmarkDotNet with version (>= 0.15.8)"
    assert "not served by the configured feed" in explain_build_failure(output)


def test_a_stale_lock_file_is_explained():
    assert "packages.lock.json does not match" in explain_build_failure(
        "error NU1004: The packages lock file is inconsistent"
    )


def test_an_unknown_failure_points_at_the_log():
    assert "read the build log" in explain_build_failure("something odd")


def test_a_failing_build_raises_with_the_first_error_and_advice(tmp_path):
    lab = LabSpec(
        "broken",
        tmp_path,
        "C#",
        "bdn",
        (),
        ("sh", "-c", "echo 'x.csproj : error NU1102: Unable to find package Foo'; exit 1"),
        ("true",),
        {},
    )
    with pytest.raises(BuildError, match="failed: x.csproj : error NU1102") as error:
        build_lab(lab, tmp_path / "build.log")
    assert "not served by the configured feed" in error.value.hint
    assert (tmp_path / "build.log").read_text().startswith("$ sh -c")


def test_a_missing_build_tool_is_explained(tmp_path: pathlib.Path):
    lab = LabSpec("broken", tmp_path, "C#", "bdn", (), ("no-such-compiler-here",), ("true",), {})
    with pytest.raises(BuildError, match="cannot run the build"):
        build_lab(lab, tmp_path / "build.log")


def _counting_lab(tmp_path: pathlib.Path) -> LabSpec:
    """A lab whose 'build' appends a line to builds.txt and writes its output folder."""
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "main.txt").write_text("v1")
    build = ("sh", "-c", "mkdir -p out && echo built >> builds.txt")
    return LabSpec(
        "counting", tmp_path, "sh", "bdn", (), build, ("true",), {}, build_inputs=("src/*.txt",), build_output="out"
    )


def test_a_current_build_is_reused_and_a_changed_input_rebuilds(tmp_path: pathlib.Path):
    lab = _counting_lab(tmp_path)
    build_lab(lab, tmp_path / "1.log")
    build_lab(lab, tmp_path / "2.log")
    assert (tmp_path / "builds.txt").read_text().count("built") == 1
    assert "not rebuilt" in (tmp_path / "2.log").read_text()
    (tmp_path / "src" / "main.txt").write_text("v2")
    build_lab(lab, tmp_path / "3.log")
    assert (tmp_path / "builds.txt").read_text().count("built") == 2


def test_files_in_ignored_folders_do_not_force_a_rebuild(tmp_path: pathlib.Path):
    from dataclasses import replace

    lab = replace(_counting_lab(tmp_path), build_inputs=("src/**/*.txt",), build_ignore=("src/obj",))
    build_lab(lab, tmp_path / "1.log")
    (tmp_path / "src" / "obj").mkdir()
    (tmp_path / "src" / "obj" / "generated.txt").write_text("written by the build")
    build_lab(lab, tmp_path / "2.log")
    assert (tmp_path / "builds.txt").read_text().count("built") == 1


def test_a_lab_without_declared_inputs_is_always_rebuilt(tmp_path: pathlib.Path):
    from dataclasses import replace

    lab = replace(_counting_lab(tmp_path), build_inputs=())
    build_lab(lab, tmp_path / "1.log")
    build_lab(lab, tmp_path / "2.log")
    assert (tmp_path / "builds.txt").read_text().count("built") == 2
