"""A figure published on another CPU architecture than the one its cells ran on (an arm64 figure, AdvSimd, read on an
x64 host): its published CPU's architecture comes from the experiment's hardware entry (`microarchitecture`, or the
vendor: harness/config/cpu_models.toml); the measured one from the rows (the `arch` each lab process reports). Such a
figure is "cannot reproduce: not on this host, ..." with its ratio kept beside it, marked as a reading of the other
architecture, never judged as if the two were the same machine. A run over several hosts reads each figure on the
host nearest its CPU (analysis/compute/verdicts/nearest_host.py), so an arm64 host in the run reproduces its arm64
figures."""

from __future__ import annotations

import pandas as pd

from harness.config.cpu_models import load_cpu_table, published_cpu
from harness.model.experiment import Experiment
from harness.model.folder.records import MEASURED
from harness.model.judging import CANNOT_REPRODUCE


def measured_arches(rows: pd.DataFrame, experiment: str, benchmark: str) -> set[str]:
    """The architectures the benchmark's measured processes reported (emulated ones are no reading of it)."""
    if rows.empty or "arch" not in rows:
        return set()
    mine = rows[(rows["experiment"] == experiment) & (rows["benchmark"] == benchmark)]
    if "status" in mine:
        mine = mine[mine["status"].isin(MEASURED)]
    if "emulated" in mine:
        mine = mine[~mine["emulated"].fillna(False).astype(bool)]
    return {str(a) for a in mine["arch"].dropna()}


def with_arch_check(verdicts: pd.DataFrame, experiments: list[Experiment], rows: pd.DataFrame) -> pd.DataFrame:
    """The verdicts, a figure whose published CPU is of another architecture than every process that measured it
    turned into 'cannot reproduce: not on this host', its measured ratio kept (said to be this host's reading)."""
    if verdicts.empty:
        return verdicts
    table = load_cpu_table()
    hardware = {(e.id, h.description): h for e in experiments for h in e.hardware.values()}
    out = verdicts.copy()
    for index, row in out.iterrows():
        found = hardware.get((row["experiment"], row["published_hardware"]))
        cpu = published_cpu(found, table) if found is not None else None
        if cpu is None or cpu.arch is None or str(row["verdict"]).startswith(CANNOT_REPRODUCE):
            continue
        here = measured_arches(rows, str(row["experiment"]), str(row["benchmark"]))
        if here and cpu.arch not in here:
            measured = ", ".join(sorted(here))
            out.at[index, "verdict"] = (
                f"{CANNOT_REPRODUCE}: not on this host, an {cpu.arch} figure ({cpu.describe()}) measured here on "
                f"{measured} only (its ratio is shown as a {measured} reading, not judged)"
            )
    return out
