"""The walk from the command line's options to their uses (tests/option_walk.py): counted right on a small tree, and
no longer in this one than when the count began."""

from __future__ import annotations

import pathlib
import textwrap

from tests import option_walk


def _tree(root: pathlib.Path, files: dict[str, str]) -> pathlib.Path:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(textwrap.dedent(text), encoding="utf-8")
    return root


SMALL = {
    "harness/commands/selection.py": """
        def run_options(args):
            return args
    """,
    "harness/planning/run_plan.py": """
        from harness.config.loaders import load, unrelated
        from harness.planning.parts import budget_of

        def resolve_plan(options):
            folder = options.folder
            data = load(folder)
            unrelated(data)
            budget = budget_of(limit=options.budget)
            return _helper(data, budget)

        def _helper(data, budget):
            return data
    """,
    "harness/config/loaders.py": """
        import pathlib

        def load(path):
            return _read(pathlib.Path(path))

        def _read(path):
            return path.read_text()

        def unrelated(data):
            return data
    """,
    "harness/planning/parts.py": """
        def budget_of(limit=None):
            return limit
    """,
}


def test_the_walk_follows_options_through_calls_and_assignments_only(tmp_path):
    stops = option_walk.walk(_tree(tmp_path, SMALL))
    assert [(s.file.split("/")[-1], s.function) for s in stops] == [
        ("selection.py", "run_options"),
        ("run_plan.py", "resolve_plan"),
        ("loaders.py", "load"),
        ("loaders.py", "_read"),
        ("parts.py", "budget_of"),
    ]
    assert stops[2].through == ("path",) and stops[2].caller == "resolve_plan"
    # `unrelated(data)` and `_helper(data, budget)`: a call's result is where an option was used, not a carrier


def test_a_missing_entry_walks_nothing_past_the_command_line(tmp_path):
    stops = option_walk.walk(_tree(tmp_path, {"harness/commands/selection.py": SMALL["harness/commands/selection.py"]}))
    assert [s.function for s in stops] == ["run_options"]


def test_the_walk_in_this_tree_is_no_longer_than_when_the_count_began(capsys):
    code = option_walk.main([])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "resolve_plan" in out
