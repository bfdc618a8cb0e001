"""The report of a run over several hosts (harness/session/hosts_run.py): each host's run folder gets its own full
report, and the run folder a page over them: the hosts table (CPU, cores, arch, kernel, engine, how each run ended)
and every published figure's verdict on each host side by side, with the measured ratio behind it."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Callable

import pandas as pd

from analysis.render.tables import markdown_table

from harness.model.run_folder import HOSTS_DIR, HOSTS_FILE, REPORT_DIR, REPORT_HTML, REPORT_MD, RESULTS_FILE, TABLES_DIR

#: The columns of reproduction.csv that name one published figure.
CLAIM_KEY = ["experiment", "scenario", "published_variant", "reference", "metric", "isa_level", "runtime"]


def is_hosts_run(run_dir: pathlib.Path) -> bool:
    """True for the folder of a run over several hosts."""
    return (run_dir / HOSTS_FILE).is_file()


def host_folders(run_dir: pathlib.Path) -> dict[str, pathlib.Path]:
    """Each measured host's run folder, by host, in hosts.json order."""
    listed = [h["host"] for h in json.loads((run_dir / HOSTS_FILE).read_text())["hosts"]]
    return {
        name: run_dir / HOSTS_DIR / name for name in listed if (run_dir / HOSTS_DIR / name / RESULTS_FILE).is_file()
    }


def hosts_table(run_dir: pathlib.Path) -> pd.DataFrame:
    """One row per host: what its engine said, and how its run ended."""
    rows = []
    for entry in json.loads((run_dir / HOSTS_FILE).read_text())["hosts"]:
        facts = entry["facts"]
        rows.append(
            {
                "host": entry["host"],
                "state": entry["state"],
                "cpu": facts.get("cpu_model") or "",
                "cpus": facts.get("cpus"),
                "arch": facts.get("arch"),
                "kernel": facts.get("kernel"),
                "docker": facts.get("engine_version"),
                "isolated CPUs": facts.get("isolated_cpus") or "none",
                "minutes": round(entry.get("seconds", 0) / 60, 1) if entry.get("exit_code") is not None else None,
                "budget share (min)": entry.get("budget_min"),  # hosts on one machine share its budget
                "images moved": len(entry.get("images_moved") or []),
                "note": facts.get("reason")
                or ((entry.get("lost") or entry.get("last_line")) if entry["state"] == "lost" else ""),
            }
        )
    return pd.DataFrame(rows)


def verdicts_by_host(folders: dict[str, pathlib.Path]) -> pd.DataFrame:
    """Every published figure with its verdict and measured ratio on each host (from each host's reproduction.csv)."""
    merged: pd.DataFrame | None = None
    for host, folder in folders.items():
        path = folder / REPORT_DIR / TABLES_DIR / "reproduction.csv"
        if not path.is_file():
            continue
        table = pd.read_csv(path, dtype={"experiment": str})
        table = table[CLAIM_KEY + ["published_ratio", "measured_ratio", "verdict"]].rename(
            columns={"measured_ratio": f"{host} ratio", "verdict": f"{host} verdict"}
        )
        merged = table if merged is None else merged.merge(table, on=CLAIM_KEY + ["published_ratio"], how="outer")
    return merged if merged is not None else pd.DataFrame()


def write_hosts_report(
    run_dir: pathlib.Path, write_report: Callable[[pathlib.Path], pathlib.Path], render_html: Callable
) -> pathlib.Path:
    """Each host's report, then the run folder's page over them; returns its report.md."""
    folders = host_folders(run_dir)
    for folder in folders.values():
        write_report(folder)
    hosts = hosts_table(run_dir)
    verdicts = verdicts_by_host(folders)
    out = run_dir / REPORT_DIR
    (out / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    hosts.to_csv(out / TABLES_DIR / "hosts.csv", index=False)
    verdicts.to_csv(out / TABLES_DIR / "verdicts-by-host.csv", index=False)
    text = _markdown(run_dir.name, hosts, verdicts, folders)
    (out / REPORT_MD).write_text(text)
    (out / REPORT_HTML).write_text(render_html(text, out))
    return out / REPORT_MD


def _markdown(run_id: str, hosts: pd.DataFrame, verdicts: pd.DataFrame, folders: dict[str, pathlib.Path]) -> str:
    lines = [
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
        "## Verdicts per host",
        "",
    ]
    verdict_columns = [c for c in verdicts.columns if c.endswith(" verdict")]
    if verdicts.empty or not verdict_columns:
        lines.append("No host produced verdicts.")
        return "\n".join(lines) + "\n"
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
    return "\n".join(lines) + "\n"


def _table(frame: pd.DataFrame) -> str:
    return markdown_table(
        [str(c) for c in frame.columns],
        [["" if pd.isna(v) else str(v) for v in row] for row in frame.itertuples(index=False)],
    )
