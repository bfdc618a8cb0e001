"""The corpus of broken experiment files (tests/fixtures/broken-experiments): each fault is refused before anything is
built,
by `harness check` (an `error:` line naming the fault and a `hint:` line, exit 2) and by the planning that `harness
plan`
and `harness run` do, with the same message. Each file says its fault and the text its error must contain in its first
lines."""

from __future__ import annotations

import dataclasses
import pathlib
import re

import pytest

from harness.cli import main
from harness.config.experiment.experiment_checks import check_experiment, empty_experiment_reason, load_context
from harness.config.experiment.experiments import load_experiments
from harness.config.isa import load_isa_table
from harness.model.errors import ConfigError, HarnessError
from harness.planning.run_plan import RunOptions, resolve_plan
from tests.conftest import FIXTURES

CORPUS = FIXTURES / "broken-experiments"
BASE = CORPUS / "000-valid-base.toml"
BROKEN = sorted(p for p in CORPUS.glob("*.toml") if p != BASE)


def expectation(path: pathlib.Path) -> str:
    """The text a file's error must contain (its `# expect:` line)."""
    return re.search(r"^# expect: (.*)$", path.read_bytes().decode(errors="replace"), re.M).group(1)


def _folder(tmp_path: pathlib.Path, *sources: pathlib.Path) -> pathlib.Path:
    folder = tmp_path / "experiments"
    folder.mkdir()
    for index, source in enumerate(sources):
        (folder / f"{900 + index}-{source.stem}.toml").write_bytes(source.read_bytes())
    return folder


def _plan(folder: pathlib.Path, **selection):
    options = dict(
        profile="default",
        experiments=("900",),
        experiments_dir=folder,
        build=False,
        pin_harness=False,
        calibrate=False,
        check_tools=False,
    )
    return resolve_plan(RunOptions(**{**options, **selection}))


def test_the_corpus_has_one_file_per_fault_and_the_base_is_valid(tmp_path, capsys):
    assert len(BROKEN) >= 30
    assert all(re.search(r"^# fault: .+$", p.read_bytes().decode(errors="replace"), re.M) for p in BROKEN)
    folder = _folder(tmp_path, BASE)
    assert main(["check", "--experiments-dir", str(folder)]) == 0
    assert "ok  experiment 900" in capsys.readouterr().out
    assert _plan(folder).cells


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_harness_check_refuses_the_fault_with_an_error_line_and_exit_2(path, tmp_path, capsys):
    folder = _folder(tmp_path, path)
    assert main(["check", "--experiments-dir", str(folder)]) == 2
    err = capsys.readouterr().err.splitlines()
    assert err[0].startswith("error: ") and expectation(path) in err[0], err
    assert err[1].startswith("hint: ") and len(err[1]) > len("hint: ")
    assert "Traceback" not in "\n".join(err)


@pytest.mark.parametrize("path", BROKEN, ids=lambda p: p.stem)
def test_planning_refuses_the_fault_before_any_build(path, tmp_path):
    with pytest.raises(HarnessError) as error:
        _plan(_folder(tmp_path, path))
    assert expectation(path) in str(error.value)


def test_a_file_saved_with_crlf_line_endings_is_the_same_experiment(tmp_path):
    crlf = tmp_path / "crlf"
    crlf.mkdir()
    (crlf / "900-crlf.toml").write_bytes(BASE.read_bytes().replace(b"\n", b"\r\n"))
    assert load_experiments(crlf)["900"].claims == load_experiments(_folder(tmp_path, BASE))["900"].claims


def test_two_files_with_one_id_are_refused(tmp_path, capsys):
    folder = _folder(tmp_path, BASE)
    (folder / "900-copy.toml").write_bytes(BASE.read_bytes())  # 900-base… and 900-copy…, both with id "900"
    assert main(["check", "--experiments-dir", str(folder)]) == 2
    assert "both have id '900'" in capsys.readouterr().err


def test_a_file_whose_name_would_leave_it_out_is_refused_and_so_is_a_folder_with_none(tmp_path, capsys):
    folder = _folder(tmp_path, BASE)
    (folder / "Draft.toml").write_bytes(BASE.read_bytes())
    assert main(["check", "--experiments-dir", str(folder)]) == 2
    assert "Draft.toml is not named like an experiment file" in capsys.readouterr().err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert main(["check", "--experiments-dir", str(empty)]) == 2
    assert "holds no experiment file" in capsys.readouterr().err
    assert main(["check", "--experiments-dir", str(tmp_path / "missing")]) == 2
    assert "is not a folder" in capsys.readouterr().err


def test_a_selection_that_plans_no_cell_is_an_error_not_an_empty_run(tmp_path):
    folder = _folder(tmp_path, BASE)
    selection = r"\(profile default, --experiment 900, --benchmark stj, --variant newtonsoft-default\)"
    with pytest.raises(ConfigError, match=r"the selection plans 0 cells " + selection):
        _plan(folder, benchmarks=("stj",), variants=("newtonsoft-default",))


def test_an_experiment_a_profile_leaves_without_cells_is_named_and_a_narrowed_selection_is_not(tmp_path):
    folder = _folder(tmp_path, BASE)
    node = next(pathlib.Path(__file__).parents[3].glob("experiments/006-*.toml"))
    (folder / "006-cross-language.toml").write_text(node.read_text())
    profiles = tmp_path / "profiles.toml"
    profiles.write_text(
        '[profiles.node]\ndescription = "x"\nexperiments = ["900", "006"]\nisa_levels = ["native"]\nruntimes = '
        '["24.21.0"]\n'
    )
    with pytest.raises(ConfigError, match="experiment 900 .* plans to 0 cells: none of its benchmarks gets a runtime"):
        _plan(folder, profile="node", experiments=None, profiles_file=profiles)
    plan = _plan(
        folder, experiments=("900", "006"), runtimes=("24.21.0",)
    )  # --runtime narrows on purpose: 006's Node cells
    assert {c.experiment for c in plan.cells} == {"006"}


def test_a_level_this_host_lacks_leaves_an_experiment_without_cells_and_says_which(tmp_path):
    exp = load_experiments(_folder(tmp_path, BASE))["900"]
    reason = empty_experiment_reason(
        exp,
        {("900", "stj"): [], ("900", "newtonsoft"): []},
        {("900", "stj"): ["8.0.0"]},
        ["claims"],
        "arm64",
        load_isa_table(),
    )
    assert (
        reason == "none of its benchmarks gets an ISA level of this arm64 host (asked for: no-avx512; "
        "this host's levels: native, scalar)"
    )


def test_a_dataset_whose_model_the_lab_lacks_is_refused(tmp_path):
    exp = load_experiments(_folder(tmp_path, BASE))["900"]
    context = load_context()
    employee = context.manifest.datasets["employee-single"]
    datasets = {**context.manifest.datasets, "employee-single": dataclasses.replace(employee, model="Employe")}
    broken = dataclasses.replace(context, manifest=dataclasses.replace(context.manifest, datasets=datasets))
    with pytest.raises(ConfigError, match="declares model 'Employe', which lab dotnet does not have") as error:
        check_experiment(exp, broken)
    assert "Employee" in error.value.hint


def test_the_table_of_the_issue_each_fault_is_refused(tmp_path):
    """The six faults the issue lists, each accepted with exit 0 before."""
    for name in (
        "lab-runtime-not-of-the-lab",
        "isa-level-typo",
        "duplicate-benchmark-id",
        "negative-ratio",
        "ratio-not-a-number",
        "zero-mean",
        "unknown-variant",
        "claim-reference-runtime-of-other-lab",
    ):
        path = CORPUS / f"{name}.toml"
        folder = tmp_path / name
        folder.mkdir()
        (folder / "900-x.toml").write_bytes(path.read_bytes())
        with pytest.raises(HarnessError, match=re.escape(expectation(path))):
            _plan(folder)


def test_a_draft_with_todos_blocks_only_itself_and_the_check(tmp_path, capsys):
    folder = _folder(tmp_path, BASE, CORPUS / "todo-left.toml")  # 900: valid; 901: fields still saying TODO
    (folder / "901-todo-left.toml").write_text(
        (folder / "901-todo-left.toml").read_text().replace('id = "900"', 'id = "901"')
    )
    assert _plan(folder).cells  # experiment 900 still plans
    with pytest.raises(ConfigError, match="2 field\\(s\\) still say TODO"):
        _plan(folder, experiments=("901",))
    assert main(["check", "--experiments-dir", str(folder)]) == 2
    assert "still say TODO" in capsys.readouterr().err
