"""The Markdown page of a run over several hosts (hosts_report.py writes it): the hosts table with a link to each
host's own report and what its noise figures mean, each published figure read on the host nearest its published CPU,
and every figure's verdict on each host side by side, those that differ first."""

from __future__ import annotations

import pathlib

import pandas as pd

from analysis.formatting.tables import markdown_table


def hosts_markdown(
    run_id: str,
    hosts: pd.DataFrame,
    verdicts: pd.DataFrame,
    folders: dict[str, pathlib.Path],
    nearest: pd.DataFrame,
    experiments_note: str = "",
) -> str:
    """The page over the hosts of run `run_id`: its hosts, each figure on the nearest host, and verdicts per host;
    `experiments_note` says where the experiment files came from when not the hosts' own copies."""
    lines = _hosts_section(run_id, hosts, folders)
    if experiments_note:
        lines[4:4] = [f"**Experiment files**: {experiments_note}", ""]
    lines += _nearest_section(nearest) + _verdicts_section(verdicts, folders)
    return "\n".join(lines) + "\n"


def _hosts_section(run_id: str, hosts: pd.DataFrame, folders: dict[str, pathlib.Path]) -> list[str]:
    """The title, the hosts table, the links to each host's report and what the noise figures mean."""
    return [
        f"# Run {run_id} over {len(hosts)} hosts",
        "",
        "Each host's run is a run folder of its own under `hosts/`, with its full report (linked below); this page "
        "puts the hosts and every published figure's verdict on each of them side by side.",
        "",
        "## Hosts",
        "",
        _table(hosts),
        "",
        "Reports: " + ", ".join(f"[{host}](../hosts/{host}/report/report.md)" for host in folders),
        "",
        "Noise figures: process CV, the median spread between processes of one cell; ratio CI99, the median width "
        "of the measured ratios' 99% intervals; replaced, processes disturbed by other work and measured again; "
        "calibration drift, the largest change of the fixed calibration workload during the run.",
        "",
    ]


def _nearest_section(nearest: pd.DataFrame) -> list[str]:
    """Each figure's primary verdict on the host nearest its published CPU; nothing when no figure has one."""
    if nearest.empty:
        return []
    return [
        "## Each figure on the host nearest its published CPU",
        "",
        "Each published figure's primary verdict (its published ISA level and runtime), read on the host whose "
        "CPU is nearest the one it was published on (same microarchitecture, else core lineage, else vendor; "
        "harness/config/cpu_models.toml), among the hosts that measured it.",
        "",
        _table(nearest.round(3)),
        "",
    ]


def _verdicts_section(verdicts: pd.DataFrame, folders: dict[str, pathlib.Path]) -> list[str]:
    """Every figure's ratio and verdict on each host, those whose verdicts differ first, after how many agree."""
    lines = [
        "## Verdicts per host",
        "",
    ]
    verdict_columns = [c for c in verdicts.columns if c.endswith(" verdict")]
    if verdicts.empty or not verdict_columns:
        lines.append("No host produced verdicts.")
        return lines
    decided = verdicts.dropna(subset=verdict_columns)
    same = decided[decided[verdict_columns].nunique(axis=1) == 1]
    lines += [
        f"{len(same)} of {len(decided)} figures measured on every host have the same verdict on each "
        f"({', '.join(folders)}); those that differ first.",
        "",
    ]
    differ = decided[decided[verdict_columns].nunique(axis=1) > 1]
    shown = pd.concat([differ, verdicts.drop(differ.index)])
    columns = [
        "experiment",
        "scenario",
        "published_variant",
        "reference",
        "isa_level",
        "runtime",
        "published_ratio",
    ] + [c for host in folders for c in (f"{host} ratio", f"{host} verdict") if c in verdicts.columns]
    lines.append(_table(shown[columns].round(3)))
    return lines


def _table(frame: pd.DataFrame) -> str:
    return markdown_table(
        [str(c) for c in frame.columns],
        [["" if pd.isna(v) else str(v) for v in row] for row in frame.itertuples(index=False)],
    )
