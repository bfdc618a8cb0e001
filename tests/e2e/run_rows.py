"""The rows of a real run as the e2e tests read them. The machine's noise is not a failure of what they test: a
process other work disturbed (more than 5% of its CPU time elsewhere) is kept in results.jsonl, set aside and replaced
by a fresh one ('replaced'), and once its cell's replacements are spent its row stays 'disturbed', outside every
statistic (harness/session/rounds/scheduler.py; tests/e2e/test_disturbed_replacement.py covers both)."""

from __future__ import annotations

import json
import pathlib

from harness.model.folder.records import RowStatus


def read_rows(run_dir: pathlib.Path) -> list[dict]:
    """Every row of the run folder's results.jsonl."""
    return [json.loads(line) for line in (run_dir / "results.jsonl").read_text().splitlines()]


def standing(rows: list[dict]) -> list[dict]:
    """The rows that stand for their rounds: those of processes a disturbance replaced left out."""
    return [r for r in rows if not r.get("replaced")]


def undisturbed(rows: list[dict]) -> list[dict]:
    """The standing rows the machine did not disturb."""
    return [r for r in standing(rows) if r["status"] != RowStatus.DISTURBED]


def disturbed_past_replacements(row: dict) -> bool:
    """A standing row still disturbed: only a cell whose replacements were spent keeps one (scheduler.py `_final`)."""
    return row["status"] == RowStatus.DISTURBED and not row.get("replaced")
