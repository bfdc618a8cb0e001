"""Verification: every variant's output checked against its input before it was timed."""

from __future__ import annotations

import pandas as pd

from analysis.formatting.tables import markdown_table
from harness.model.folder.records import VerificationStatus


def verification_markdown(cells: pd.DataFrame) -> str:
    """Which cells passed the field-by-field and round-trip check, and which did not."""
    first = cells.sort_values("isa_rank").drop_duplicates(["experiment", "benchmark"])
    failed = first[first["verification_status"] == VerificationStatus.FAILED]
    passed = int((first["verification_status"] == "passed").sum())
    text = (
        "## What was verified\n\nBefore timing, every measured process deserialized its dataset with its variant, "
        "compared the "
        "object field by field with the dataset (JSON names matched to properties ignoring case and attributes), and "
        f"checked that serializing and deserializing again preserved it. {passed} benchmark(s) passed; "
        f"{len(failed)} failed and are marked VOID / ⚠ / hatched wherever they appear.\n"
    )
    if not failed.empty:
        text += "\n" + markdown_table(
            ["Experiment", "Benchmark", "Variant × dataset", "What differs"],
            [
                [r["experiment"], r["benchmark"], f"{r['variant']} × {r['dataset']}", r["verification_message"]]
                for _, r in failed.iterrows()
            ],
        )
    return text
