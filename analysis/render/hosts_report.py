"""The report of a run over several hosts (harness/session/hosts_run.py): each host's run folder gets its own full
report, and the run folder a page over them: the hosts table (CPU, its widest vector ISA, cores, arch, kernel, engine,
how each run ended, its noise figures), each published figure read on the host nearest its published CPU
(analysis/compute/verdicts/nearest_host.py) with the reason, and every figure's verdict on each host side by side."""

from __future__ import annotations

import pathlib
from collections.abc import Callable

import pandas as pd

from analysis.compute.aggregate import median_relative_ci
from analysis.compute.noise import calibration_drift
from analysis.compute.run_experiments import run_experiments
from analysis.compute.verdicts.nearest_host import HostCpu, nearest_host
from analysis.render.hosts_markdown import hosts_markdown
from analysis.render.untrusted import neutral_markdown
from harness.config.cpu_models import load_cpu_table, published_cpu, widest_vector_isa
from harness.config.experiment.experiments import load_experiments
from harness.model.defaults import REPO_ROOT
from harness.model.experiment import Experiment, Hardware
from harness.model.folder.hosts_file import read_hosts_file
from harness.model.folder.run_folder import (
    CALIBRATION_FILE,
    HOSTS_DIR,
    HOSTS_FILE,
    REPORT_DIR,
    REPORT_HTML,
    REPORT_MD,
    RESULTS_FILE,
    TABLES_DIR,
    TIMELINE_FILE,
)
from harness.model.folder.run_records import SESSION, CalibrationRecord, HostRecord, TimelineRecord
from harness.model.folder.store import RunStore
from harness.model.judging import NOT_MEASURED

#: The columns of reproduction.csv that name one published figure.
CLAIM_KEY = ["experiment", "scenario", "published_variant", "reference", "metric", "isa_level", "runtime"]
#: The verdict on the nearest host of a figure whose published CPU is not known here (its experiment or its hardware
#: entry is in no experiment file the page reads): no host can be chosen.
UNREAD = "not read: its published CPU is unknown"
#: Columns of one figure every host's reproduction.csv has alike.
SHARED = ["published_ratio", "published_hardware", "primary"]


def is_hosts_run(run_dir: pathlib.Path) -> bool:
    """True for the folder of a run over several hosts."""
    return (run_dir / HOSTS_FILE).is_file()


def host_folders(run_dir: pathlib.Path, hosts: list[HostRecord]) -> dict[str, pathlib.Path]:
    """Each measured host's run folder, by host, in hosts.json order."""
    return {
        h.host: run_dir / HOSTS_DIR / h.host for h in hosts if (run_dir / HOSTS_DIR / h.host / RESULTS_FILE).is_file()
    }


def host_noise(folder: pathlib.Path | None) -> dict[str, object]:
    """A host's noise figures, from its run folder and report tables: the median spread between processes of a cell,
    the median ratio CI, the processes replaced as disturbed, and the calibration workload's largest drift."""
    figures: dict[str, object] = {"process CV": None, "ratio CI99": None, "replaced": None, "calibration drift": None}
    cells_csv = None if folder is None else folder / REPORT_DIR / TABLES_DIR / "results.csv"
    if cells_csv is None or not cells_csv.is_file():
        return figures
    cells = pd.read_csv(cells_csv, low_memory=False)
    cv = median_relative_ci(cells, "between_process_cv")
    ci = median_relative_ci(cells, "ratio_rel_ci99")
    drift = calibration_drift(RunStore(folder).records(CALIBRATION_FILE, CalibrationRecord))  # type: ignore[arg-type]
    figures.update(
        {
            "process CV": _percent(cv),
            "ratio CI99": _percent(ci, "±"),
            "replaced": int(cells["replaced_processes"].fillna(0).sum()) if "replaced_processes" in cells else None,
            "calibration drift": None if drift.empty else _percent((drift["relative_to_first"] - 1).abs().max()),
        }
    )
    return figures


def _measured(verdict: object) -> bool:
    """A host measured a figure when it has a verdict for it other than 'not measured' (a byte verdict has no ratio)."""
    return isinstance(verdict, str) and bool(verdict) and not verdict.startswith(NOT_MEASURED)


def _session_minutes(folder: pathlib.Path | None) -> float | None:
    """The host's own session, from its plan to its last row (its timeline's session phase): its wall time without
    the wait for a CPU another host of its machine held."""
    if folder is None:
        return None
    sessions = [r.seconds for r in RunStore(folder).records(TIMELINE_FILE, TimelineRecord) if r.phase == SESSION]
    return round(sum(sessions) / 60, 1) if sessions else None


def _public(text: str) -> str:
    """An engine's message as a published page may show it: this checkout's path (in a socket or context path) as
    <repo>."""
    return text.replace(str(REPO_ROOT), "<repo>")


def _percent(value: float | None, sign: str = "") -> str | None:
    return None if value is None or pd.isna(value) else f"{sign}{100 * value:.1f}%"


def hosts_table(hosts: list[HostRecord], folders: dict[str, pathlib.Path]) -> pd.DataFrame:
    """One row per host: what its engine said, how its run ended and how noisy it was."""
    rows: list[dict[str, object]] = []
    table = load_cpu_table()
    for entry in hosts:
        facts = entry.facts
        rows.append(
            {
                "host": entry.host,
                "state": entry.state,
                "cpu": facts.get("cpu_model") or "",
                "microarchitecture": HostCpu.from_facts(entry.host, facts, table).cpu.describe(),
                "cpus": facts.get("cpus"),
                "arch": facts.get("arch"),
                "vector ISA": widest_vector_isa(facts.get("cpu_flags") or ()),
                "kernel": facts.get("kernel"),
                "docker": facts.get("engine_version"),
                "isolated CPUs": facts.get("isolated_cpus") or "none",
                "wall (min)": round(entry.seconds / 60, 1) if entry.exit_code is not None else None,
                "measuring (min)": _session_minutes(folders.get(entry.host)),
                "budget share (min)": entry.budget_min,  # hosts on one machine share its budget
                "images moved": len(entry.images_moved),
                **host_noise(folders.get(entry.host)),
                "note": _public(
                    facts.get("reason") or ((entry.lost or entry.last_line) if entry.state == "lost" else "")
                ),
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
        table = table[CLAIM_KEY + SHARED + ["measured_ratio", "verdict"]].rename(
            columns={"measured_ratio": f"{host} ratio", "verdict": f"{host} verdict"}
        )
        merged = table if merged is None else merged.merge(table, on=CLAIM_KEY + SHARED, how="outer")
    return merged if merged is not None else pd.DataFrame()


def nearest_host_verdicts(
    verdicts: pd.DataFrame, hosts: list[HostRecord], experiments: dict[str, Experiment] | None = None
) -> pd.DataFrame:
    """Each published figure's primary verdict read on the host nearest its published CPU, among the hosts that
    measured it (a verdict there other than 'not measured'), with the reason
    (analysis/compute/verdicts/nearest_host.py).
    """
    if verdicts.empty:
        return pd.DataFrame()
    experiments = experiments if experiments is not None else load_experiments()
    table = load_cpu_table()
    cpus = [HostCpu.from_facts(h.host, h.facts, table) for h in hosts]
    out = []
    for record in verdicts[verdicts["primary"].astype(bool)].to_dict("records"):
        experiment = experiments.get(str(record["experiment"]))
        hardware = _hardware(experiment, record["published_hardware"])
        measured = [h for h in cpus if _measured(record.get(f"{h.name} verdict"))]
        if experiment is None:
            host, why = None, f"experiment {record['experiment']} is in no host's experiment files nor this checkout's"
        elif hardware is None:
            host, why = None, "its hardware entry is not in the experiment any more"
        else:
            host, why = nearest_host(published_cpu(hardware, table), measured)
        out.append(
            {
                **{k: record[k] for k in CLAIM_KEY},
                "published_ratio": record["published_ratio"],
                "read on": host or "",
                "ratio": record.get(f"{host} ratio") if host else None,
                "verdict": record.get(f"{host} verdict") if host else UNREAD if hardware is None else "not measured",
                "why this host": why,
            }
        )
    return pd.DataFrame(out)


def _hardware(experiment: Experiment | None, description: str) -> Hardware | None:
    """The experiment's hardware entry a figure was published on; None when the experiment or the entry is not there."""
    return next((h for h in (experiment.hardware.values() if experiment else ()) if h.description == description), None)


def write_hosts_report(
    run_dir: pathlib.Path, write_report: Callable[[pathlib.Path], pathlib.Path], render_html: Callable
) -> pathlib.Path:
    """Each host's report, then the run folder's page over them; returns its report.md."""
    records = read_hosts_file(run_dir)
    folders = host_folders(run_dir, records)
    for folder in folders.values():
        write_report(folder)
    hosts = hosts_table(records, folders)
    verdicts = verdicts_by_host(folders)
    # each host's own copy of the experiment files, as its report read them (analysis/compute/run_experiments.py)
    found = run_experiments(list(folders.values()), set(verdicts["experiment"]) if not verdicts.empty else set())
    nearest = nearest_host_verdicts(verdicts, records, found.by_id)
    out = run_dir / REPORT_DIR
    (out / TABLES_DIR).mkdir(parents=True, exist_ok=True)
    hosts.to_csv(out / TABLES_DIR / "hosts.csv", index=False)
    verdicts.to_csv(out / TABLES_DIR / "verdicts-by-host.csv", index=False)
    nearest.to_csv(out / TABLES_DIR / "verdicts-nearest-host.csv", index=False)
    # the page lives in report/ and links each host's report under ../hosts/: links may climb to the run folder
    text = neutral_markdown(hosts_markdown(run_dir.name, hosts, verdicts, folders, nearest, found.note), up=1)
    (out / REPORT_MD).write_text(text)
    (out / REPORT_HTML).write_text(render_html(text, out, up=1))
    return out / REPORT_MD
