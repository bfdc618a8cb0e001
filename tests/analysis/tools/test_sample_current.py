"""The committed sample report (docs/sample-report/, `just sample RUN`) keeps up with the report: every section a
report of today's code writes for a run of the default profile is in it. Fails when a new section lands and the sample
is not made again from a current run."""

import pathlib
import re

from analysis.render.writer import write_report

SAMPLE = pathlib.Path(__file__).resolve().parents[3] / "docs" / "sample-report" / "report.md"


def _sections(text: str) -> set[str]:
    """The report's top-level sections, an experiment's by its kind only (the sample measured other write-ups)."""
    return {
        re.sub(r"^Experiment \S+: .*", "Experiment", line[3:].strip())
        for line in text.splitlines()
        if line.startswith("## ")
    }


def test_the_sample_has_every_section_of_todays_report(fake_run):
    report = write_report(fake_run).read_text()
    missing = _sections(report) - _sections(SAMPLE.read_text())
    assert not missing, f"docs/sample-report lacks {sorted(missing)}: make it again (just sample RUN of a default run)"
