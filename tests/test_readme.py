"""The README's numbers stay true: its counts of write-ups and figures are the experiments', and the wall time it
quotes is the latest default `just run-all` in docs/findings.md's table of runs (run id, commit and minutes)."""

import pathlib
import re

from harness.config.experiment.experiments import load_experiments

REPO = pathlib.Path(__file__).resolve().parents[1]
NUMBERS = {1: "One", 2: "Two", 3: "Three", 4: "Four", 5: "Five", 6: "Six", 7: "Seven", 8: "Eight", 9: "Nine"}


def _readme() -> str:
    return " ".join((REPO / "README.md").read_text().split())  # one line: a sentence may wrap anywhere


def test_the_readme_counts_the_write_ups_and_figures_of_the_experiments():
    writeups = [experiment for experiment in load_experiments().values() if experiment.claims]
    figures = sum(len(experiment.claims) for experiment in writeups)
    count = NUMBERS.get(len(writeups), str(len(writeups)))
    expected = f"{count} write-ups, {figures} figures"
    assert expected in _readme(), f"README.md should say '{expected}' (experiments/ has {len(writeups)} with claims)"


def _latest_default_run() -> tuple[str, str, str]:
    """(run id, commit, minutes) of the newest row of docs/findings.md's run table whose command is `just run-all`
    with the default profile and options (the table lists the newest first)."""
    for line in (REPO / "docs" / "findings.md").read_text().splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if len(cells) == 5 and re.match(r"`just run-all`( |$)", cells[1]):
            run = re.findall(r"`([^`]+)`", cells[0])[0]
            commit = re.findall(r"`([0-9a-f]{7,})`", cells[2])[0]
            minutes = re.findall(r"\d+\.\d", cells[4])[0]
            return run, commit, minutes
    raise AssertionError("docs/findings.md has no default `just run-all` row in its table of runs")


def test_the_readme_quotes_the_wall_time_of_the_latest_default_run_noted_in_docs():
    run, commit, minutes = _latest_default_run()
    quoted = re.search(r"\(([\d.]+) min on this 2-vCPU VM in run `([^`]+)`, commit `([0-9a-f]+)`", _readme())
    assert (
        quoted
    ), "README.md should quote the default run's wall time as '(N min on this 2-vCPU VM in run `ID`, commit `C`'"
    assert quoted.groups() == (
        minutes,
        run,
        commit,
    ), f"docs/findings.md's latest default run: {minutes} min, {run}, {commit}"
