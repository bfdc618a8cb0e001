"""A new lab is its folder: a tiny lab declared only in lab/tiny/ (lab.toml, catalog.toml, prerequisites.toml) of a
temporary tree, with an experiment and a profile of its own, runs through the checks, the plan, the preflight of its
prerequisites, a fake run and the report without a line of the harness, the analysis, the repository's
prerequisites.toml or another lab's files naming it (tests/fixtures/tiny-lab). Its image is its folder's too:
compose.yaml gets a service for it, and the packages of its lock file and of its Dockerfile join the licence table."""

from __future__ import annotations

import json
import pathlib
import shutil

from analysis.render.writer import write_report
from harness.backends.fake import FakeBackend
from harness.config.lab.labs import load_labs
from harness.config.lab.prerequisites import lab_need, load_prerequisites
from harness.containers.compose import compose_services, render_compose
from harness.containers.images import LabImage, library_versions_label
from harness.host.preflight import check_needs, labs_dir_of, run_needs
from harness.licences.debian import debian_packages
from harness.licences.npm import declare_npm
from harness.licences.policy import NPM_LOCK_FILE, lab_lock_files, load_licence_policy
from harness.planning.run_plan import RunOptions, resolve_plan
from harness.session.runner import execute_run
from tests.conftest import REPO

TINY = REPO / "tests" / "fixtures" / "tiny-lab"


def _tree(tmp_path: pathlib.Path) -> RunOptions:
    shutil.copytree(TINY, tmp_path / "tree")
    tree = tmp_path / "tree"
    return RunOptions(
        profile="tiny",
        experiments_dir=tree / "experiments",
        profiles_file=tree / "experiments" / "profiles.toml",
        labs_dir=tree / "lab",
        results_dir=tmp_path / "results",
        lab_cpuset="0",
        pin_harness=False,
        calibrate=False,
        check_tools=False,
    )


def test_the_tiny_lab_plans_from_its_folder_alone(tmp_path):
    plan = resolve_plan(_tree(tmp_path))
    assert sorted(c.cell_id.split("@")[0] for c in plan.cells) == ["900:fast", "900:slow"]
    assert set(plan.labs) == {"tiny@1.0.0"} or {lab.name for lab in plan.labs.values()} == {"tiny"}


def test_the_tiny_lab_runs_on_the_fake_backend_and_gets_its_report(tmp_path, fixture_dir):
    options = _tree(tmp_path)
    summary = execute_run(options, FakeBackend(fixture_dir, time_scale={"tiny-slow": 2.0}))
    rows = [json.loads(line) for line in (summary.directory / "results.jsonl").read_text().splitlines()]
    assert rows and {r["lab"] for r in rows} == {"tiny"}
    assert all(r["status"] in ("ok", "unverified") for r in rows), [r.get("error") for r in rows]
    report = write_report(summary.directory)
    text = report.read_text()
    assert "900" in text and "Tiny: a lab that lives in its own folder" in text


def test_the_tiny_labs_prerequisites_come_from_its_folder_alone(tmp_path):
    options = _tree(tmp_path)
    assert sorted(p.relative_to(TINY).as_posix() for p in TINY.rglob("prerequisites.toml")) == [
        "lab/tiny/prerequisites.toml"
    ]
    assert lab_need("tiny") not in load_prerequisites().needs, "nothing outside its folder names it"
    plan = resolve_plan(options)
    assert labs_dir_of(plan) == options.labs_dir
    prerequisites = load_prerequisites(labs_dir=options.labs_dir)
    assert prerequisites.lab_needs == (lab_need("tiny"),)
    assert [item.name for item in prerequisites.serving({lab_need("tiny")})] == ["sh"]
    assert prerequisites.items[:-1] == load_prerequisites(labs_dir=tmp_path / "no-labs").items, "the shared ones first"
    assert lab_need("tiny") in run_needs(plan, "host", prerequisites)
    assert check_needs(prerequisites, {lab_need("tiny")}, "the tiny lab") == []  # sh is always there


def test_the_tiny_labs_image_and_compose_service_come_from_its_folder_alone(tmp_path):
    options = _tree(tmp_path)
    labs = load_labs(options.labs_dir)
    services = compose_services(labs)["services"]
    image = LabImage(labs["tiny"].for_runtime("1.0.0"))
    assert list(services) == [image.service]
    service = services[image.service]
    assert service["image"] == image.tag and "tiny" in image.tag
    assert service["build"]["context"] == "lab/tiny" and service["build"]["dockerfile"] == "Dockerfile"
    assert service["build"]["args"] == {"RUNTIME": "1.0.0"} and service["build"]["platforms"] == ["linux/amd64"]
    assert service["cpuset"] == "${LAB_CPUSET:-1}" and service["read_only"] is True
    assert image.service in render_compose(labs)
    assert "tiny-dep" in library_versions_label(labs["tiny"])
    repo_services = compose_services(load_labs())["services"]
    assert not any("tiny" in name for name in repo_services), "nothing outside its folder names it"


def test_the_tiny_labs_packages_join_the_licence_table_from_its_folder_alone(tmp_path):
    tree = _tree(tmp_path).labs_dir.parent
    policy = load_licence_policy()
    lock_files = lab_lock_files(NPM_LOCK_FILE, tree)
    assert lock_files == ("lab/tiny/package-lock.json",)
    declared = declare_npm(policy.sources.paths(lock_files, tree), policy)
    assert [(d.package, d.version, d.licence) for d in declared] == [("tiny-dep", "1.2.3", "MIT")]
    dockerfiles = policy.sources.paths(policy.sources.debian_dockerfiles, tree)
    assert [p.relative_to(tree).as_posix() for p in dockerfiles] == ["lab/tiny/Dockerfile"]
    installed, _ = debian_packages([], dockerfiles, tree)
    assert installed == {"dash": ["lab/tiny/Dockerfile"]}
    assert "lab/tiny/package-lock.json" not in lab_lock_files(NPM_LOCK_FILE), "the repository's table does not name it"
