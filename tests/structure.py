"""The shape of the Python code, counted: the layers each package's folders form, every import that runs back up a
layer, every circle of files, and the modules, functions and folders over their size limits.

    python3 -m tests.structure            # the counts and each offence (exit 1 if any)
    python3 -m tests.structure --layers   # the layers, one line per package (docs/architecture.md quotes them)
    python3 -m tests.structure --packages # each folder, what it may import and what it owns (quoted there too)

Every import counts: at the top, inside a function, or under `if TYPE_CHECKING:` (an annotation is a dependency too).
A folder may import its own modules and those of the floors below it, never a folder beside it on its own floor; the
analysis reads the harness only through `harness.model` and `harness.config`, and the harness never imports the
analysis.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys
from collections.abc import Iterator
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]
PACKAGES = ("harness", "analysis")

#: Each package's floors, lowest first; a floor's folders (or top-level modules) may import only lower floors.
LAYERS: dict[str, tuple[tuple[str, ...], ...]] = {
    "harness": (
        ("harness", "model"),
        ("config",),
        ("planning", "normalize", "bdn", "codegen", "licences"),
        ("host", "builds"),
        ("containers",),
        ("backends",),
        ("session",),
        ("commands",),
        ("cli",),
        ("__main__",),
    ),
    "analysis": (
        ("analysis", "defaults"),
        ("formatting",),
        ("compute",),
        ("charts",),
        ("sections",),
        ("tools",),
        ("render",),
        ("store",),
        ("site",),
        ("cli",),
        ("__main__",),
    ),
}
#: What a package may import from another first-party package.
ACROSS = {"analysis": ("harness.model", "harness.config", "harness"), "harness": ()}

MAX_MODULE_LINES = 300
MAX_FOLDER_MODULES = 15  # a folder's modules besides its __init__: more is a concept to split into a package
MAX_FUNCTION_LINES = 60


@dataclass(frozen=True)
class Module:
    name: str  # dotted
    path: pathlib.Path
    is_package: bool

    @property
    def package(self) -> str:
        return self.name.split(".")[0]

    @property
    def part(self) -> str:
        """The folder (or top-level module) the module belongs to: the unit the layers order."""
        parts = self.name.split(".")
        return parts[0] if len(parts) == 1 else parts[1]


def modules(root: pathlib.Path = ROOT) -> dict[str, Module]:
    found = {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = list(path.relative_to(root).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = Module(".".join(parts), path, is_package)
    return found


def _target(name: str, known: dict[str, Module]) -> str | None:
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def imports(module: Module, known: dict[str, Module]) -> set[str]:
    """The first-party modules this one imports (a package's `__init__` when a name is not a module of it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(module.path.read_text(), str(module.path))):
        if isinstance(node, ast.Import):
            found.update(t for alias in node.names if (t := _target(alias.name, known)))
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = module.name.split(".")
                if not module.is_package:
                    base.pop()
                base = base[: len(base) - node.level + 1]
                stem = ".".join(base + ([node.module] if node.module else []))
            else:
                stem = node.module or ""
            for alias in node.names:
                target = _target(f"{stem}.{alias.name}", known) or _target(stem, known)
                if target:
                    found.add(target)
    found.discard(module.name)
    return found


def floor_of(module: Module) -> int | None:
    for index, floor in enumerate(LAYERS[module.package]):
        if module.part in floor:
            return index
    return None


def back_arrows(known: dict[str, Module]) -> Iterator[str]:
    """Every import of a module on the same or a higher floor of another folder, or of a package not allowed."""
    for module in known.values():
        mine = floor_of(module)
        if mine is None:
            yield f"{module.name}: its folder '{module.part}' is on no floor of {module.package} (tests/structure.py)"
            continue
        for name in sorted(imports(module, known)):
            other = known[name]
            if other.package != module.package:
                allowed = ACROSS[module.package]
                if not any(name == a or name.startswith(a + ".") for a in allowed if a != other.package) and not (
                    name == other.package and other.package in allowed
                ):
                    yield f"{module.name} -> {name}: {module.package} may import only {', '.join(allowed) or 'itself'}"
                continue
            theirs = floor_of(other)
            if other.part == module.part or theirs is None:
                continue
            if theirs >= mine:
                where = "a higher floor" if theirs > mine else "a folder beside it"
                floors = f"{other.part} on floor {theirs}, {module.part} on {mine}"
                yield f"{module.name} -> {name}: imports {where} ({floors})"


def circles(known: dict[str, Module]) -> list[list[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iterative)."""
    graph = {name: sorted(imports(m, known)) for name, m in known.items()}
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(graph[start]))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(graph[child])))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                group = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    group.append(member)
                    if member == node:
                        break
                if len(group) > 1:
                    found.append(sorted(group))
    return found


def long_modules(known: dict[str, Module]) -> list[str]:
    return [
        f"{m.path.relative_to(ROOT)}: {n} lines (at most {MAX_MODULE_LINES})"
        for m in known.values()
        if (n := len(m.path.read_text().splitlines())) > MAX_MODULE_LINES
    ]


def crowded_folders(known: dict[str, Module]) -> list[str]:
    counts: dict[str, int] = {}
    for m in known.values():
        if not m.is_package and m.path.name != "__main__.py":
            folder = m.name.rpartition(".")[0].replace(".", "/")
            counts[folder] = counts.get(folder, 0) + 1
    return [
        f"{folder}: {n} modules (at most {MAX_FOLDER_MODULES}; split it into packages by concept)"
        for folder, n in sorted(counts.items())
        if n > MAX_FOLDER_MODULES
    ]


def long_functions(known: dict[str, Module]) -> list[str]:
    found = []
    for module in known.values():
        for node in ast.walk(ast.parse(module.path.read_text())):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.end_lineno is not None:
                first = min([node.lineno] + [d.lineno for d in node.decorator_list])
                length = node.end_lineno - first + 1
                if length > MAX_FUNCTION_LINES:
                    found.append(
                        f"{module.path.relative_to(ROOT)}:{node.lineno}: {node.name} is {length} lines "
                        f"(at most {MAX_FUNCTION_LINES})"
                    )
    return found


def layers_text() -> str:
    """One line per package, lowest floor first: `harness: model ← config ← planning, tools, normalize ← …`."""
    lines = []
    for package, floors in LAYERS.items():
        named = [", ".join(p for p in floor if p != package) for floor in floors]
        lines.append(f"{package}: " + " ← ".join(n for n in named if n))
    return "\n".join(lines)


def packages_text(root: pathlib.Path = ROOT) -> str:
    """One line per folder, in floor order: its path, its floor (what it may import) and its docstring's first
    sentence (what it owns)."""
    known = modules(root)
    lines = []
    for package, floors in LAYERS.items():
        for index, floor in enumerate(floors):
            below = [p for f in floors[:index] for p in f if p != package]
            for part in floor:
                for m in sorted(known.values(), key=lambda m: m.name):
                    if not m.is_package or m.package != package or m.part != part or m.name == package:
                        continue
                    doc = ast.get_docstring(ast.parse(m.path.read_text())) or ""
                    owns = " ".join(doc.split()).split(". ")[0].rstrip(".")
                    may = ", ".join(below) if below else "nothing of its package"
                    lines.append(f"{m.name.replace('.', '/')}/ (may import {may}): {owns}")
    return "\n".join(lines)


def undocumented_packages(known: dict[str, Module]) -> list[str]:
    return [
        f"{m.path.relative_to(ROOT) if m.path.is_relative_to(ROOT) else m.path}: no docstring (say what it owns)"
        for m in known.values()
        if m.is_package and not ast.get_docstring(ast.parse(m.path.read_text()))
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python3 -m tests.structure", description=__doc__.splitlines()[0])
    parser.add_argument("--layers", action="store_true", help="print the layers and stop")
    parser.add_argument("--packages", action="store_true", help="print each folder, what it may import and owns")
    args = parser.parse_args(argv)
    if args.layers or args.packages:
        print(layers_text() if args.layers else packages_text())
        return 0
    known = modules()
    sections = {
        "imports that run back up a layer": list(back_arrows(known)),
        "circles of files": [" ↔ ".join(c) for c in circles(known)],
        f"modules over {MAX_MODULE_LINES} lines": long_modules(known),
        f"functions over {MAX_FUNCTION_LINES} lines": long_functions(known),
        f"folders over {MAX_FOLDER_MODULES} modules": crowded_folders(known),
        "packages without a docstring": undocumented_packages(known),
    }
    for title, items in sections.items():
        print(f"{len(items)} {title}")
        for item in items:
            print(f"  {item}")
    return 1 if any(sections.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
