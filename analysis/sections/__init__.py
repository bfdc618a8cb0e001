"""The report's sections, one module each, and their order. A section is a function of the report's inputs
(analysis/sections/inputs.py) returning its markdown, or "" to leave itself out: adding one is a module and a line in
SECTIONS."""

from __future__ import annotations

from collections.abc import Callable

from analysis.compute.cold_start import cold_start_markdown
from analysis.compute.conformance_matrix import conformance_markdown
from analysis.compute.cross_language import CROSS_LANGUAGE_CHARTS, cross_language_markdown
from analysis.compute.noise import noise_markdown
from analysis.compute.precision import precision_markdown
from analysis.compute.timing import timing_markdown
from analysis.compute.verdicts.undecided import undecided_markdown
from analysis.sections.experiments import experiments_markdown
from analysis.sections.failures import failures_markdown
from analysis.sections.header import header_markdown, header_notes
from analysis.sections.inputs import COLD_CHARTS, ReportInputs
from analysis.sections.isa import isa_markdown
from analysis.sections.method import method_markdown
from analysis.sections.reproduction import reproduction_section
from analysis.sections.runtimes import runtimes_markdown
from analysis.sections.setup import setup_markdown
from analysis.sections.summary import summary_markdown
from analysis.sections.verification import verification_markdown
from analysis.sections.versions import versions_markdown

#: The report's sections in report order.
SECTIONS: list[Callable[[ReportInputs], str]] = [
    lambda i: header_markdown(i.env, i.run, i.cells) + header_notes(i),
    lambda i: summary_markdown(i.cells, i.verdicts, i.noise_probe),
    lambda i: precision_markdown(i.cells, i.run, i.groups, i.rows),
    lambda i: timing_markdown(i.rows, i.timeline),
    lambda i: noise_markdown(i.rows, i.cells, i.calibrations, i.env),
    lambda i: isa_markdown(i.env),
    lambda i: runtimes_markdown(i.experiments, i.verdicts, i.env),
    lambda i: versions_markdown(i.experiments, i.env, i.cells),
    lambda i: setup_markdown(i.setup),
    lambda i: verification_markdown(i.cells),
    lambda i: reproduction_section(i.experiments, i.verdicts, i.cells),
    lambda i: undecided_markdown(i.verdicts, i.run),
    lambda i: experiments_markdown(i.experiments, i.cells, i.levels, i.charts),
    lambda i: cold_start_markdown(i.cold, i.charts.get(COLD_CHARTS, [])),
    lambda i: cross_language_markdown(i.cross_language, i.charts.get(CROSS_LANGUAGE_CHARTS, [])),
    lambda i: conformance_markdown(i.conformance, i.cells),
    lambda i: failures_markdown(i.cells),
    lambda i: method_markdown(i.run),
]
