"""The layers of harness/ and analysis/ hold (tests/structure.py counts them; docs/architecture.md states them)."""

from __future__ import annotations

import pathlib

from tests import structure

ROOT = pathlib.Path(__file__).resolve().parents[1]


def test_no_import_runs_back_up_a_layer():
    assert list(structure.back_arrows(structure.modules())) == []


def test_no_circle_of_files():
    assert structure.circles(structure.modules()) == []


def test_every_folder_is_on_a_floor():
    known = structure.modules()
    assert all(structure.floor_of(m) is not None for m in known.values())


def test_the_architecture_document_states_the_layers():
    text = (ROOT / "docs" / "architecture.md").read_text()
    for line in structure.layers_text().splitlines():
        assert line in text, f"docs/architecture.md should state: {line}"


def test_the_architecture_document_states_every_package():
    text = " ".join((ROOT / "docs" / "architecture.md").read_text().split())
    for line in structure.packages_text().splitlines():
        assert " ".join(line.split()) in text, f"docs/architecture.md should state: {line}"


def test_every_package_says_what_it_owns():
    assert structure.undocumented_packages(structure.modules()) == []


def _tree(tmp_path: pathlib.Path, files: dict[str, str]) -> dict[str, structure.Module]:
    for name, text in files.items():
        path = tmp_path / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
    for package in structure.PACKAGES:
        (tmp_path / package).mkdir(exist_ok=True)
        (tmp_path / package / "__init__.py").touch()
    return structure.modules(tmp_path)


def test_an_import_from_a_higher_floor_is_named(tmp_path):
    known = _tree(
        tmp_path,
        {
            "harness/model/__init__.py": "",
            "harness/model/rows.py": "from harness.session.processes.probe import X\n",
            "harness/session/__init__.py": "",
            "harness/session/processes/probe.py": "X = 1\n",
        },
    )
    arrows = list(structure.back_arrows(known))
    assert arrows == [
        "harness.model.rows -> harness.session.processes.probe: imports a higher floor (session on floor 6, model on 0)"
    ]


def test_a_deferred_or_annotation_only_import_counts(tmp_path):
    known = _tree(
        tmp_path,
        {
            "harness/config/__init__.py": "",
            "harness/config/a.py": "def f():\n    from harness.planning import b\n",
            "harness/planning/__init__.py": "",
            "harness/planning/b.py": (
                "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from harness.bdn.c import C\n"
            ),
            "harness/bdn/__init__.py": "",
            "harness/bdn/c.py": "from ..config import a\n",
        },
    )
    arrows = list(structure.back_arrows(known))
    assert "harness.config.a -> harness.planning.b: imports a higher floor (planning on floor 2, config on 1)" in arrows
    assert any(a.startswith("harness.planning.b -> harness.bdn.c: imports a folder beside it") for a in arrows)
    assert structure.circles(known) == [["harness.bdn.c", "harness.config.a", "harness.planning.b"]]


def test_the_analysis_reads_the_harness_only_through_model_and_config(tmp_path):
    known = _tree(
        tmp_path,
        {
            "harness/model/__init__.py": "",
            "harness/model/m.py": "import analysis.compute.x\n",
            "harness/session/__init__.py": "",
            "harness/session/s.py": "",
            "analysis/compute/__init__.py": "",
            "analysis/compute/x.py": "from harness.session import s\nfrom harness.model.m import *\n",
        },
    )
    arrows = list(structure.back_arrows(known))
    only = "analysis may import only harness.model, harness.config, harness"
    assert f"analysis.compute.x -> harness.session.s: {only}" in arrows
    assert "harness.model.m -> analysis.compute.x: harness may import only itself" in arrows
    assert not any(a.startswith("analysis.compute.x -> harness.model.m") for a in arrows)


def test_a_folder_on_no_floor_is_named(tmp_path):
    known = _tree(tmp_path, {"harness/extras/__init__.py": "", "harness/extras/e.py": ""})
    assert any("'extras' is on no floor" in a for a in structure.back_arrows(known))


def test_no_module_is_over_its_size_limit():
    assert structure.long_modules(structure.modules()) == []


def test_no_folder_holds_more_than_its_modules():
    assert structure.crowded_folders(structure.modules()) == []


def test_a_crowded_folder_is_named(tmp_path):
    files = {f"harness/config/m{i}.py": "" for i in range(structure.MAX_FOLDER_MODULES + 1)}
    files["harness/config/__init__.py"] = ""
    files["harness/config/lab/__init__.py"] = ""
    files["harness/config/lab/a.py"] = ""
    known = _tree(tmp_path, files)
    found = structure.crowded_folders(known)
    assert len(found) == 1 and "config: 16 modules" in found[0]


def test_no_function_is_over_its_size_limit():
    assert structure.long_functions(structure.modules()) == []


def test_mypy_exempts_no_module():
    import tomllib

    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]
    assert "overrides" not in config and not config.get("ignore_errors"), "fix the types instead (docs/architecture.md)"
