"""The JsonSrcGen probe (harness/builds/jsonsrcgen_probe.py): a model space whose twins would stop the .NET lab's build
is left out with the compiler's first error, the others kept; with a stand-in compiler for the search, and once with the
real one on a model that does not compile beside the lab's own jsonsrcgen-kinds."""

from __future__ import annotations

import pathlib
import shutil

import pytest

from harness.builds.jsonsrcgen_probe import (
    PROBE_DIR,
    ProbeUnavailable,
    TwinProbe,
    first_error,
    jsonsrcgen_version,
    probe_twins,
)
from harness.builds.lab_models import lab_model_files
from harness.codegen import csharp as emit_csharp
from harness.config.data.declared_models import load_spaces
from harness.config.lab.labs import load_labs
from harness.model.defaults import DATASETS_DIR, LABS_DIR
from tests.conftest import REPO

CLASH = REPO / "tests" / "fixtures" / "models" / "jsonsrcgen-clash.toml"
SMALL = """schema_version = 1
[roots]
all = "List<{name}>"
[types.{name}]
Id = "int"
"""


def _datasets(tmp_path: pathlib.Path, own: dict[str, str], local: dict[str, str]) -> pathlib.Path:
    for folder, files in (("models", own), ("local/models", local)):
        (tmp_path / folder).mkdir(parents=True, exist_ok=True)
        for name, text in files.items():
            (tmp_path / folder / f"{name}.toml").write_text(text)
    return tmp_path


def _lab(tmp_path: pathlib.Path) -> pathlib.Path:
    lab = tmp_path / "lab"
    (lab / "src").mkdir(parents=True, exist_ok=True)
    (lab / "src" / "JsonLab.csproj").write_text('<PackageReference Include="JsonSrcGen" Version="1.1.1" />')
    return lab


class Compiler:
    """Compiles by rule: a source fails when it holds every type name of one of `clashes`."""

    def __init__(self, clashes: list[set[str]], unavailable: bool = False) -> None:
        self.clashes, self.unavailable = clashes, unavailable
        self.sources: list[str] = []

    def __call__(self, source: str, log: pathlib.Path) -> str | None:
        if self.unavailable:
            raise ProbeUnavailable("no `dotnet` on PATH (scripts/setup)")
        self.sources.append(source)
        for names in self.clashes:
            if all(f"public class {name}" in source for name in names):
                return "CS0128: A local variable or function named 'list6' is already defined in this scope"
        return None


def test_twins_that_compile_together_are_all_kept_after_one_compile(tmp_path):
    spaces = load_spaces(_datasets(tmp_path / "d", {"a": SMALL.format(name="A")}, {"b": SMALL.format(name="B")}))
    compiler = Compiler([])
    probe = probe_twins(spaces, _lab(tmp_path), compiler)
    assert probe.left_out == {} and probe.compiled == ("a", "b") and len(compiler.sources) == 1


def test_a_users_space_that_clashes_with_the_labs_own_is_left_out_naming_the_error_and_the_other_space(tmp_path):
    own = {"kinds": SMALL.format(name="Order"), "zeta": SMALL.format(name="Zeta")}
    spaces = load_spaces(_datasets(tmp_path / "d", own, {"alpha": SMALL.format(name="Person")}))
    compiler = Compiler([{"Order", "Person"}])
    probe = probe_twins(spaces, _lab(tmp_path), compiler)
    # the user's space is added last (the lab's own first, by name), so it is the one left out, though it sorts first
    assert list(probe.left_out) == ["alpha"] and probe.compiled == ("kinds", "zeta")
    why = probe.left_out["alpha"]
    assert why.startswith("build failed:") and "beside kinds, zeta's" in why and "CS0128" in why and "log " in why
    assert "left out, their jsonsrcgen cells void: alpha: build failed" in probe.describe()


def test_a_space_that_fails_alone_is_left_out_and_the_rest_still_compile_together(tmp_path):
    spaces = load_spaces(_datasets(tmp_path / "d", {"a": SMALL.format(name="A"), "b": SMALL.format(name="Bad")}, {}))
    probe = probe_twins(spaces, _lab(tmp_path), Compiler([{"Bad"}]))
    assert list(probe.left_out) == ["b"] and "does not compile (CS0128" in probe.left_out["b"]
    assert probe.compiled == ("a",)


def test_the_result_is_kept_by_what_was_compiled_and_a_changed_model_is_probed_again(tmp_path):
    datasets, lab = _datasets(tmp_path / "d", {"a": SMALL.format(name="A")}, {"b": SMALL.format(name="B")}), _lab(
        tmp_path
    )
    first = Compiler([{"A", "B"}])
    assert list(probe_twins(load_spaces(datasets), lab, first).left_out) == ["b"]
    again = Compiler([])
    assert list(probe_twins(load_spaces(datasets), lab, again).left_out) == ["b"] and again.sources == []
    (datasets / "local" / "models" / "b.toml").write_text(SMALL.format(name="C"))
    assert probe_twins(load_spaces(datasets), lab, again).left_out == {} and len(again.sources) == 1


@pytest.mark.parametrize(
    "kept",
    [
        "{not json",
        '{"left_out": {"b": 5}, "compiled": ["a"], "log": "x"}',
        '{"left_out": [], "compiled": "a", "log": 1}',
    ],
)
def test_a_damaged_or_edited_kept_result_is_probed_again(tmp_path, kept):
    datasets, lab = _datasets(tmp_path / "d", {"a": SMALL.format(name="A")}, {"b": SMALL.format(name="B")}), _lab(
        tmp_path
    )
    probe_twins(load_spaces(datasets), lab, Compiler([{"A", "B"}]))
    for stored in (lab / PROBE_DIR).glob("*.json"):
        stored.write_text(kept)
    again = Compiler([{"A", "B"}])
    assert list(probe_twins(load_spaces(datasets), lab, again).left_out) == ["b"] and again.sources


def test_a_probe_that_cannot_run_keeps_every_twin_and_says_why(tmp_path):
    spaces = load_spaces(_datasets(tmp_path / "d", {"a": SMALL.format(name="A")}, {}))
    probe = probe_twins(spaces, _lab(tmp_path), Compiler([], unavailable=True))
    assert probe.left_out == {} and "no `dotnet`" in probe.describe() and "built in" in probe.describe()
    assert probe_twins([], _lab(tmp_path), Compiler([], unavailable=True)) == TwinProbe()  # no twins: nothing to ask


@pytest.fixture
def clash_datasets(tmp_path):
    """The lab's own models, and the clash beside them as a user's."""
    folder = tmp_path / "clash-datasets"
    (folder / "local" / "models").mkdir(parents=True)
    shutil.copytree(DATASETS_DIR / "models", folder / "models")
    shutil.copy(CLASH, folder / "local" / "models" / CLASH.name)
    return folder


def test_a_space_left_out_has_no_twin_and_its_roots_carry_the_reason_the_lab_reports(clash_datasets):
    spaces = load_spaces(clash_datasets)
    files = emit_csharp.lab_files(spaces, {"jsonsrcgen-clash": "build failed: CS0128 (log x)"})
    assert "JsonsrcgenClash" not in files[emit_csharp.TWINS_FILE]
    assert "JsonsrcgenKinds.JsonSrcGenTwin" in files[emit_csharp.TWINS_FILE]
    registry = files[emit_csharp.REGISTRY_FILE]
    assert 'notes["jsonsrcgen-clash.many"] = "build failed: CS0128 (log x)";' in registry
    assert "JsonsrcgenClash.JsonSrcGenTwin" not in registry


def test_the_compilers_first_error_is_read_without_paths():
    line = (
        "/x/obj/JsonConverter.cs(12,9): error CS0128: A local variable named 'list6' is already defined [/x/P.csproj]"
    )
    assert first_error("warning CS8602: x\n" + line) == "CS0128: A local variable named 'list6' is already defined"
    assert first_error("Build succeeded.") is None


def test_the_probe_compiles_the_version_the_labs_project_pins():
    assert jsonsrcgen_version(LABS_DIR / "dotnet") == "1.1.1"


@pytest.mark.skipif(shutil.which("dotnet") is None, reason="needs the .NET SDK")
def test_the_real_generator_leaves_out_a_model_that_does_not_compile_beside_jsonsrcgen_kinds(clash_datasets):
    lab = load_labs(LABS_DIR)["dotnet"]
    files = lab_model_files(lab, clash_datasets)
    assert files is not None
    registry = files[emit_csharp.REGISTRY_FILE]
    assert "JsonsrcgenKinds.JsonSrcGenTwin" in files[emit_csharp.TWINS_FILE]  # the lab's own model keeps its twin
    assert "JsonsrcgenClash" not in files[emit_csharp.TWINS_FILE]
    assert 'notes["jsonsrcgen-clash.one"] = "build failed: JsonSrcGen' in registry
    assert "beside jsonsrcgen-kinds's (CS0128:" in registry
