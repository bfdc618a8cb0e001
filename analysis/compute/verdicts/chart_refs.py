"""A written chart as the report refers to it: its file name (charts/<name>.png|svg|csv) and its alt text."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ChartRef:
    """One chart the writer saved."""

    name: str
    alt: str = ""

    def markdown(self) -> str:
        """The report's image line: the PNG with its alt text (the finding and the numbers), and a link to the SVG."""
        alt = (self.alt or self.name).replace("[", "(").replace("]", ")").replace('"', "'")
        return f"![{alt}](charts/{self.name}.png) ([SVG](charts/{self.name}.svg))"
