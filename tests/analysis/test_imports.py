"""The analysis reads a run folder through the model and the configuration only: it never imports the run loop,
planning, host probes, backends or containers (docs/architecture.md)."""

import ast
import pathlib

ANALYSIS = pathlib.Path(__file__).resolve().parents[2] / "analysis"
ALLOWED = ("harness.model", "harness.config")


def _harness_imports(path: pathlib.Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
            found.add(node.module if node.module != "harness" else "harness." + node.names[0].name)
        elif isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.split(".")[0] == "harness")
    return found


def test_the_analysis_imports_only_the_model_and_the_configuration_of_the_harness():
    offending = {
        f"{path.relative_to(ANALYSIS.parent)}: {module}"
        for path in ANALYSIS.rglob("*.py")
        for module in _harness_imports(path)
        if not module.startswith(ALLOWED)
    }
    assert not offending, sorted(offending)
    # The check sees imports at all (a walk that found nothing would pass vacuously).
    assert any(_harness_imports(path) for path in ANALYSIS.rglob("*.py"))
