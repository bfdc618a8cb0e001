"""report.md: the run's story in one markdown document, its sections in the order analysis/sections/ gives (text
only; the writer saves it)."""

from __future__ import annotations

from analysis.sections import SECTIONS
from analysis.sections.inputs import ReportInputs


def compose_report(inputs: ReportInputs) -> str:
    """The whole report.md text."""
    return "\n".join(text for text in (section(inputs) for section in SECTIONS) if text)
