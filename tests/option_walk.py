"""How far a reader walks to follow the run options from the command line to their uses, counted from the source.

    python3 -m tests.option_walk            # each stop in the walk's order, the count (exit 1 if the walk grew)
    python3 -m tests.option_walk --root DIR # the same for another checkout (an older commit, to compare)

The walk starts where the command line becomes a `RunOptions` (`harness/commands/selection.py`) and goes on into
`resolve_plan(options)`. A stop is a function an option reaches: `options` itself, a field read from it, or a name
assigned from such a read (not from a call of the harness's own functions: that call is the use, and its function is a
stop where the walk goes on with the parameter the option landed in). Each function is a stop once, visited in the order
of its first call in the source; a stop in a file the walk has been in before is a re-entry (stops − files). Calls
through an attribute (`x.method()`) and calls into the standard library are not followed: they are where an option is
used, not passed on.
"""

from __future__ import annotations

import argparse
import ast
import pathlib
import sys
from dataclasses import dataclass

ROOT = pathlib.Path(__file__).resolve().parents[1]
START = ("harness/commands/selection.py", "run_options")
ENTRY = ("harness/planning/run_plan.py", "resolve_plan", "options")
#: the walk may not get longer than it was when this count began (commit 1152935 walked 55 stops in 20 files by
#: it; issue 73 asks for 30 in 10, counted by another walker that gave 74 in 25 there)
MAX_STOPS, MAX_FILES = 45, 18


@dataclass(frozen=True)
class Stop:
    file: str
    function: str
    through: tuple[str, ...] = ()  # the parameters an option came in by
    caller: str = ""  # the stop that called it


class _Source:
    """The harness's modules parsed once: each module's functions and what its imported names point at."""

    def __init__(self, root: pathlib.Path) -> None:
        self.root = root
        self._modules: dict[str, ast.Module] = {}

    def module(self, file: str) -> ast.Module | None:
        if file not in self._modules:
            path = self.root / file
            if not path.is_file():
                return None
            self._modules[file] = ast.parse(path.read_text(encoding="utf-8"), filename=file)
        return self._modules[file]

    def function(self, file: str, name: str) -> ast.FunctionDef | None:
        tree = self.module(file)
        for node in tree.body if tree else ():
            if isinstance(node, ast.FunctionDef) and node.name == name:
                return node
        return None

    def resolve(self, file: str, name: str) -> tuple[str, str] | None:
        """The harness file and function a bare name called in `file` is: defined there or imported from harness."""
        if self.function(file, name):
            return file, name
        tree = self.module(file)
        for node in tree.body if tree else ():
            if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "harness":
                for alias in node.names:
                    if (alias.asname or alias.name) == name:
                        target = node.module.replace(".", "/") + ".py"
                        return (target, alias.name) if self.function(target, alias.name) else None
        return None


def _names(node: ast.AST) -> set[str]:
    return {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}


def _calls_harness(node: ast.AST, source: _Source, file: str) -> bool:
    return any(
        isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and source.resolve(file, n.func.id)
        for n in ast.walk(node)
    )


def _carriers(function: ast.FunctionDef, start: set[str], source: _Source, file: str) -> set[str]:
    """The names in a function that hold an option: the parameters it came in by, and names assigned from them."""
    carriers = set(start)
    changed = True
    while changed:
        changed = False
        for node in ast.walk(function):
            if isinstance(node, (ast.Assign, ast.AnnAssign)) and node.value is not None:
                if _names(node.value) & carriers and not _calls_harness(node.value, source, file):
                    targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                    new = set().union(*(_names(t) for t in targets)) - carriers
                    if new:
                        carriers |= new
                        changed = True
    return carriers


def _parameters(function: ast.FunctionDef) -> list[str]:
    args = function.args
    return [a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]]


def _passed(call: ast.Call, callee: ast.FunctionDef, carriers: set[str]) -> set[str]:
    """The callee's parameters that receive an option in this call."""
    params = _parameters(callee)
    received = {params[i] for i, arg in enumerate(call.args) if i < len(params) and _names(arg) & carriers}
    received |= {k.arg for k in call.keywords if k.arg in params and _names(k.value) & carriers}
    return received


def walk(root: pathlib.Path) -> list[Stop]:
    """The stops in the walk's order: the command line's RunOptions, then resolve_plan and everything it passes on."""
    source = _Source(root)
    stops: list[Stop] = []
    seen: set[tuple[str, str]] = set()

    def visit(file: str, name: str, params: set[str], caller: str) -> None:
        function = source.function(file, name)
        if function is None or (file, name) in seen:
            return
        seen.add((file, name))
        stops.append(Stop(file, name, tuple(sorted(params)), caller))
        carriers = _carriers(function, params, source, file)
        calls = sorted(
            (n for n in ast.walk(function) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)),
            key=lambda n: (n.lineno, n.col_offset),
        )
        for call in calls:
            target = source.resolve(file, call.func.id) if isinstance(call.func, ast.Name) else None
            callee = source.function(*target) if target else None
            if target and callee and (received := _passed(call, callee, carriers)):
                visit(target[0], target[1], received, name)

    if source.function(*START):
        stops.append(Stop(*START))
        seen.add(START)
    visit(*ENTRY[:2], {ENTRY[2]}, START[1])
    return stops


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=pathlib.Path, default=ROOT, help="the checkout to walk (default: this one)")
    args = parser.parse_args(argv)
    stops = walk(args.root.resolve())
    files = list(dict.fromkeys(s.file for s in stops))
    for number, stop in enumerate(stops, 1):
        came = f" ({', '.join(stop.through)} from {stop.caller})" if stop.caller else ""
        print(f"{number:3} {stop.file}:{stop.function}{came}")
    print(
        f"{len(stops)} stops in {len(files)} files, {len(stops) - len(files)} re-entries "
        f"(limits: {MAX_STOPS} stops, {MAX_FILES} files)"
    )
    return 0 if len(stops) <= MAX_STOPS and len(files) <= MAX_FILES else 1


if __name__ == "__main__":
    sys.exit(main())
