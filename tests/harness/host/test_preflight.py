"""The preflight (harness/host/preflight.py), `harness doctor`, and the one list of prerequisites (prerequisites.toml
and each lab's own lab/<lab>/prerequisites.toml; tests/harness/config/test_prerequisites.py reads them) that set-up,
.ci/run, pyproject.toml and the labs' lab.toml must agree with.

Programs are faked: PATH holds stubs (printing "stub 1.0") of every program the list names but the ones a test leaves
out. Python modules and header files are this machine's own.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import os
import re
import shutil
import subprocess
import time

import pytest
import tomllib

from harness.backends import BACKENDS
from harness.cli import main
from harness.commands import run as run_commands
from harness.config.lab.labs import load_labs
from harness.config.lab.prerequisites import LAB_NEED_PREFIX, lab_need, load_prerequisites, missing_packages
from harness.host.preflight import check_run, run_needs
from harness.model.defaults import REPO_ROOT
from harness.model.errors import MissingToolError
from harness.model.folder.records import COLD, MEASURES, STEADY
from harness.planning.run_plan import RunOptions, resolve_plan

PREREQUISITES = load_prerequisites()
#: What scripts/setup itself runs, beside the list's programs and shell builtins.
SET_UP_TOOLS = ("dirname", "id")


def _stub(bin_dir, name, script="echo 'stub 1.0'"):
    path = bin_dir / name
    path.write_text(f"#!/bin/sh\n{script}\n")
    path.chmod(0o755)


def _fake_path(bin_dir, monkeypatch, leave_out=("hyperfine",)):
    """PATH becomes bin_dir, with a stub of every program the list names except those left out."""
    bin_dir.mkdir(exist_ok=True)
    for item in PREREQUISITES.items:
        if item.command and item.command not in leave_out:
            _stub(bin_dir, item.command)
    monkeypatch.setenv("PATH", str(bin_dir))
    return bin_dir


@pytest.fixture
def no_hyperfine(tmp_path, monkeypatch):
    """A PATH with every program of the list but hyperfine."""
    return _fake_path(tmp_path / "bin", monkeypatch)


def _plan(**selection):
    return resolve_plan(RunOptions(build=False, pin_harness=False, calibrate=False, **selection))


def cold_plan():
    """Cold starts of one serializer, JIT-compiled and Native AOT."""
    return _plan(
        profile="smoke",
        experiments=("005",),
        benchmarks=("cold-ser-stj-sourcegen", "cold-ser-stj-sourcegen-aot"),
        runtimes=("10.0.12", "10.0.12-aot"),
    )


# -- the run's preflight --------------------------------------------------------------------------------------------


def test_a_missing_hyperfine_stops_the_default_run_in_seconds_before_it_builds_or_measures(
    no_hyperfine, tmp_path, monkeypatch, capsys
):
    assert any(
        cell.measure == COLD for cell in _plan(profile="default").cells
    )  # its cold-start cells come last, after ~an hour
    started = []
    monkeypatch.setattr(
        run_commands, "execute_run", lambda options, backend: started.append(options)
    )  # builds, probes, then the cells
    results = tmp_path / "results"
    began = time.monotonic()
    assert main(["run", "--backend", "host", "--results-dir", str(results)]) == 2
    assert time.monotonic() - began < 10
    err = capsys.readouterr().err
    assert "error: this run needs what this machine lacks: hyperfine (for host-cold: apt-get install hyperfine)" in err
    assert (
        "hint: apt-get install hyperfine" in err and "(or `scripts/setup`, which installs every missing package" in err
    )
    assert started == [] and not results.exists()


def test_a_plan_without_cold_cells_does_not_need_hyperfine(no_hyperfine):
    plan = _plan(profile="smoke", experiments=("001",), benchmarks=("single-stj-default",), runtimes=("10.0.12",))
    assert {cell.measure for cell in plan.cells} == {STEADY}
    assert "host-cold" not in run_needs(plan, "host", PREREQUISITES)
    assert not [note for note in check_run(plan, "host") if "hyperfine" in note]


def test_cold_cells_need_hyperfine_and_aot_builds_the_c_toolchain_only_on_the_host_backend(no_hyperfine):
    plan = cold_plan()
    assert {cell.measure for cell in plan.cells} == {COLD} and any(
        build.runtime.endswith("-aot") for build in plan.labs.values()
    )
    assert {"harness", "report", "host", "host-cold", "host-aot", "lab:dotnet"} <= run_needs(
        plan, "host", PREREQUISITES
    )
    assert run_needs(plan, "docker", PREREQUISITES) == {
        "harness",
        "report",
        "docker",
        "lab:dotnet",
    }  # the images carry their own
    with pytest.raises(MissingToolError, match="hyperfine"):
        check_run(plan, "host")


def test_every_missing_tool_is_named_at_once_and_an_optional_one_is_only_a_note(tmp_path, monkeypatch):
    _fake_path(tmp_path / "bin", monkeypatch)  # resolve the plan while the labs' programs are there
    plan = cold_plan()
    _fake_path(tmp_path / "fewer", monkeypatch, leave_out=("hyperfine", "taskset", "git"))
    with pytest.raises(MissingToolError) as error:
        check_run(plan, "host")
    assert "taskset (for host: apt-get install util-linux)" in str(error.value) and "hyperfine (for host-cold" in str(
        error.value
    )
    assert "git" not in str(error.value) and error.value.hint.startswith("apt-get install util-linux hyperfine")
    _fake_path(tmp_path / "no-git", monkeypatch, leave_out=("git",))
    notes = [note.split(" (")[0] for note in check_run(plan, "docker")]
    # the Buildx plugin is a file, not a program on PATH: a fresh machine lacks it (so does CI), and that is a note too
    assert notes[0] == "git is not installed" and set(notes[1:]) <= {"docker buildx is not installed"}


def test_a_lab_without_its_programs_names_them_with_the_fix(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    with pytest.raises(MissingToolError, match="lab 'dotnet' needs 'dotnet', not on PATH") as error:
        load_labs()["dotnet"].check_requirements()
    assert "install the .NET 10 SDK" in error.value.hint and "just doctor" in error.value.hint


# -- harness doctor -------------------------------------------------------------------------------------------------


def test_doctor_groups_by_need_shows_versions_and_names_the_install_command_of_what_is_missing(no_hyperfine, capsys):
    assert main(["doctor"]) == 1
    out = capsys.readouterr().out
    assert "host-cold: cold-start cells on the host backend" in out
    assert re.search(r"^  MISSING  hyperfine +apt-get install hyperfine$", out, re.M)
    assert re.search(r"^  ok       dotnet +stub 1\.0$", out, re.M)
    assert re.search(
        r"^  ok       pyyaml +\S+  \(also tests\)$", out, re.M
    )  # a module's version, from its distribution
    assert (
        out.splitlines()[-1].startswith("install: apt-get install hyperfine")
        and "`scripts/setup`" in out.splitlines()[-1]
    )


def test_doctor_for_one_need_checks_only_what_it_needs_and_brief_prints_one_line_when_all_is_there(
    no_hyperfine, capsys
):
    assert main(["doctor", "--for", "lab:dotnet", "--brief"]) == 0
    assert capsys.readouterr().out.strip() == "doctor: 2 of 2 found; nothing lab:dotnet needs is missing"
    assert main(["doctor", "--for", "tests", "--brief"]) == 1
    assert "MISSING  hyperfine" in capsys.readouterr().out


def test_doctor_does_not_fail_on_an_extra_unless_asked(tmp_path, monkeypatch, capsys):
    _fake_path(tmp_path / "bin", monkeypatch, leave_out=("chromium",))
    main(["doctor", "--brief"])
    assert re.search(
        r"^  absent   chromium +apt-get install chromium  \(not needed by what was asked", capsys.readouterr().out, re.M
    )
    assert main(["doctor", "--brief", "--all"]) == 1
    assert "MISSING  chromium" in capsys.readouterr().out


def test_an_unknown_need_lists_the_valid_ones(capsys):
    assert main(["doctor", "--for", "test"]) == 2
    err = capsys.readouterr().err
    assert "unknown need 'test' in prerequisites.toml (did you mean 'tests'?)" in err and "lab:dotnet" in err


def test_the_tests_need_what_the_smoke_run_needs_on_the_host_backend():
    assert PREREQUISITES.expand(["tests"]) >= {
        "harness",
        "report",
        "host",
        "host-cold",
        "host-aot",
        *PREREQUISITES.lab_needs,
    }
    assert "screenshot" not in PREREQUISITES.set_up_needs() and "screenshot" in PREREQUISITES.set_up_needs(extras=True)


def test_just_test_runs_the_lint_before_the_tests_and_set_up_installs_its_tools():
    justfile = (REPO_ROOT / "Justfile").read_text()
    test_recipe = justfile.split("\ntest:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    assert "    just lint" in test_recipe
    assert test_recipe.index("    just lint") < next(i for i, line in enumerate(test_recipe) if "pytest" in line)
    lint_recipe = justfile.split("\nlint:\n", 1)[1].split("\n\n", 1)[0]
    for tool in ("black --check", "flake8", "mypy", "harness lab-checks lint"):  # each lab's own: lab.toml [checks]
        assert tool in lint_recipe
    assert "harness lab-checks test" in "\n".join(test_recipe)
    lint_tools = {item.name for item in PREREQUISITES.items if "lint" in item.needed_by}
    assert lint_tools == {"black", "flake8", "isort", "mypy", "typeshed stubs"}
    assert "lint" in PREREQUISITES.expand(["tests"]) and "lint" in PREREQUISITES.set_up_needs()


# -- set-up ---------------------------------------------------------------------------------------------------------


def test_set_up_installs_only_what_is_missing_says_so_and_then_runs_the_doctor(tmp_path, monkeypatch):
    tools = {name: shutil.which(name) for name in SET_UP_TOOLS}
    log = tmp_path / "installs.log"
    bin_dir = _fake_path(tmp_path / "bin", monkeypatch, leave_out=("hyperfine", "just", "chromium"))
    for name in ("apt-get", "npm"):
        _stub(bin_dir, name, f'echo "{name} $*" >> {log}')
    _stub(bin_dir, "sudo", 'exec "$@"')
    for name, path in tools.items():
        os.symlink(path, bin_dir / name)
    done = subprocess.run(
        ["/bin/bash", str(REPO_ROOT / "scripts" / "setup")], capture_output=True, text=True, timeout=60
    )
    installs = log.read_text().splitlines()
    assert installs[0] == "apt-get update -qq"
    assert (
        installs[1].startswith("apt-get install -y -qq --no-install-recommends hyperfine")
        and "chromium" not in installs[1]
    )
    assert installs[2:] == ["npm install -g --no-audit --no-fund --loglevel=error rust-just"]
    assert "set-up: apt-get install hyperfine" in done.stderr and "set-up: npm install -g rust-just" in done.stderr
    # The stubs installed nothing: the doctor says what is still missing, and set-up fails.
    assert done.returncode == 1 and "MISSING  hyperfine" in done.stdout and "MISSING  just" in done.stdout


def test_set_up_installs_nothing_when_everything_is_there(tmp_path, monkeypatch):
    _fake_path(tmp_path / "bin", monkeypatch, leave_out=())
    header = tmp_path / "present.h"
    header.touch()
    listed = dataclasses.replace(
        PREREQUISITES,
        items=tuple(
            dataclasses.replace(item, file=(str(header),)) if item.file else item for item in PREREQUISITES.items
        ),
    )
    assert missing_packages(listed, listed.set_up_needs(extras=True), "apt") == []
    assert missing_packages(listed, listed.set_up_needs(extras=True), "npm") == []


# -- one list: pyproject.toml, lab.toml, .ci/run and scripts/setup follow it
# ---------------------------------------------


def test_pyproject_dependencies_are_the_python_packages_of_the_list():
    project = tomllib.loads((REPO_ROOT / "pyproject.toml").read_text())["project"]
    listed: dict[str, set[str]] = {}
    for item in PREREQUISITES.items:
        if item.pypi:
            listed.setdefault(item.pypi_group, set()).add(item.pypi)
    assert set(project["dependencies"]) == listed.pop("")
    assert {group: set(packages) for group, packages in project["optional-dependencies"].items()} == listed
    for item in PREREQUISITES.items:
        if item.module:  # a module comes from Debian for /usr/bin/python3, and from PyPI for an installed package
            assert item.pypi and item.apt == (f"python3-{item.module}",), item.name


def test_every_program_a_lab_requires_is_listed_under_that_lab():
    labs = load_labs()
    for lab in labs.values():
        for program in lab.requires:
            item = PREREQUISITES.for_command(program)
            assert (
                item is not None and lab_need(lab.name) in item.needed_by
            ), f"lab/{lab.name}/lab.toml requires {program}"
    assert {name.removeprefix(LAB_NEED_PREFIX) for name in PREREQUISITES.lab_needs} == {
        lab.name for lab in labs.values() if lab.requires
    }
    for lab in labs.values():  # a lab's need and what only it needs are in its own folder
        assert not lab.requires or (lab.directory / "prerequisites.toml").is_file(), lab.name


def test_every_entry_is_found_one_way_installed_some_way_and_serves_known_needs():
    for item in PREREQUISITES.items:
        assert sum(map(bool, (item.command, item.module, item.file))) == 1, item.name
        assert item.install, item.name
        for name in item.needed_by:
            PREREQUISITES.need(name)
    for need in PREREQUISITES.needs.values():
        assert need.backend in (None, *BACKENDS) and need.measure in (None, *MEASURES), need.name
        for pattern in need.includes:
            assert fnmatch.filter(
                PREREQUISITES.need_names, pattern
            ), f"{need.name} includes {pattern}, which matches no need"
    assert len({item.name for item in PREREQUISITES.items}) == len(PREREQUISITES.items)


def test_ci_and_set_up_install_only_what_the_list_names():
    ci = (REPO_ROOT / ".ci" / "run").read_text()
    assert "bash scripts/setup --all" in ci
    assert "apt-get install" not in ci and "npm install" not in ci
    setup = (REPO_ROOT / "scripts" / "setup").read_text()
    assert (
        "-m harness.config.lab.prerequisites missing --apt" in setup
        and "-m harness.config.lab.prerequisites missing --npm" in setup
    )
    named = {
        word
        for line in re.findall(r"(?:apt_install|apt-get install|npm install -g) ([^\n]*)", setup)
        for word in line.split()
        if not word.startswith(("-", '"', "$", ">"))
    }
    assert named == {"python3"}  # the one package named there: what reads the list
    assert "python3" in PREREQUISITES.for_command("python3").apt
