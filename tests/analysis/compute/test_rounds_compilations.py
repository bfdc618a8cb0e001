"""The Noise section's line on JIT compilations while paired processes' rounds were timed."""

import pandas as pd

from analysis.compute.noise import rounds_compilations_markdown
from analysis.defaults import ROUNDS_COMPILATIONS_NOTED


def _rows(group, counts, cells=("base", "v")):
    """Rows of paired processes of one group: each process's cells share its count."""
    return [
        {
            "experiment": "001",
            "group": group,
            "isa_requested": "no-avx512",
            "runtime_requested": "8.0.0",
            "round_index": k,
            "cell_id": f"001:{group}-{cell}",
            "status": "ok",
            "rounds_compilations": count,
        }
        for k, count in enumerate(counts, 1)
        for cell in cells
    ]


def test_a_group_whose_code_changed_under_the_timer_is_named_with_its_counts():
    frame = pd.DataFrame(_rows("single", [33, 34, 34]) + _rows("file", [342, 556, 380]))
    (line,) = rounds_compilations_markdown(frame)
    assert "a median 188 per paired process" in line  # over the six processes, each counted once
    assert "001:file at no-avx512 on 8.0.0: 342–556 in 3 processes" in line and "single" not in line


def test_healthy_groups_are_said_to_be_so_and_runs_without_the_count_say_nothing():
    frame = pd.DataFrame(_rows("single", [33, ROUNDS_COMPILATIONS_NOTED, 34]))
    (line,) = rounds_compilations_markdown(frame)
    assert line.endswith(f"no group's processes compiled more than {ROUNDS_COMPILATIONS_NOTED}.")
    assert rounds_compilations_markdown(frame.drop(columns="rounds_compilations")) == []
    assert rounds_compilations_markdown(frame.assign(rounds_compilations=None)) == []
