"""This run's side of the setup comparison (analysis/compute/verdicts/setup_factors.py): what the run's environment, its
cells and the labs it ran say about each factor, in words a reader can set beside the publisher's; and what this host
could change (the lab's runtimes and run settings, the ISA levels its probes found)."""

from __future__ import annotations

import re
from dataclasses import dataclass

import pandas as pd

from harness.config.cpu_models import load_cpu_table
from harness.config.data.datasets import Manifest
from harness.config.experiment.profiles import DESIGN_TEXT
from harness.config.lab.labs import LabSpec
from harness.model.cells import Cell
from harness.model.experiment import Experiment, Hardware
from harness.model.folder.environment_record import EnvironmentRecord, LabEnvironment
from harness.model.folder.run_records import RunRecord

NOT_RECORDED = "not recorded"
#: The probe states of an ISA level that run (harness/session/processes/probe.py).
RUNNABLE_STATES = ("run", "unverifiable")
_VERSION = re.compile(r"\d+\.\d+(?:\.\d+)?")


def measured_versions(exp: Experiment, env: EnvironmentRecord | None, cells: pd.DataFrame) -> dict[str, list[str]]:
    """Each published library of the experiment → the versions this run loaded for it, read inside the lab processes
    of the builds that ran the experiment's cells (one per runtime where they differ; [] where none loaded it)."""
    labs = env.labs if env else {}
    mine = cells[cells["experiment"] == exp.id]
    targets = [
        t
        for t in dict.fromkeys(Cell.target_of(lab, r) for lab, r in zip(mine["lab"], mine["runtime_requested"]))
        if t in labs
    ]
    return {
        library: [v for v in dict.fromkeys(labs[t].libraries.get(library) for t in targets) if v]
        for library in exp.published_versions
    }


@dataclass(frozen=True)
class RunSide:
    """The run's environment, record, labs and datasets, answering one question per factor."""

    env: EnvironmentRecord | None
    run: RunRecord
    labs: dict[str, LabSpec]
    manifest: Manifest | None = None

    def _env(self, name: str) -> object:
        return getattr(self.env, name, None) if self.env else None

    def os(self) -> str:
        return str(self._env("os") or NOT_RECORDED)

    def cpu(self) -> str:
        return str(self._env("cpu_model") or NOT_RECORDED)

    def hybrid(self) -> str:
        hybrid = self._env("cpu_hybrid")
        if hybrid is None:
            return "unknown (a virtual machine's CPUs, or a run before it was recorded)" if self.env else NOT_RECORDED
        return "yes" if hybrid else "no"

    def cores(self) -> str:
        if not self.env:
            return NOT_RECORDED
        return f"{self.env.logical_cpus} logical CPUs; the lab's processes on {self.cpuset()}"

    def cpuset(self) -> str:
        return f"CPU {self.env.lab_cpuset}" if self.env else NOT_RECORDED

    def microarchitecture_name(self, key: str | None) -> str | None:
        return load_cpu_table().get(key).name if key else None

    def host_microarchitecture(self) -> str:
        if not self.env:
            return NOT_RECORDED
        found = load_cpu_table().identify(self.env.cpu_vendor, self.env.cpu_family, self.env.cpu_model_number)
        return found.name if found else f"{self.env.cpu_vendor or 'a'} CPU not in harness/config/cpu_models.toml"

    def pinned(self) -> str:
        return f"pinned to {self.cpuset()} ({self._env('backend') or '?'} backend)" if self.env else NOT_RECORDED

    def power(self) -> str:
        if not self.env:
            return NOT_RECORDED
        turbo = {True: "on", False: "off", None: "not exposed"}.get(self.env.turbo, str(self.env.turbo))
        return f"governor {self.env.governor or 'not exposed'}, turbo {turbo}"

    def method(self) -> str:
        design = self.run.design
        job = "BenchmarkDotNet's automatic job, " if self.run.automatic_job else ""
        return f"{job}the lab's `{design}` design ({DESIGN_TEXT.get(design, '?')})"

    def processes(self, cells: pd.DataFrame) -> str:
        replicates = cells["replicates"].dropna() if "replicates" in cells else pd.Series(dtype=float)
        count = f"; {int(replicates.median())} processes per cell (median)" if not replicates.empty else ""
        return f"yes: every process is a fresh one{count}"

    def data(self, cells: pd.DataFrame, exp_id: str) -> tuple[str, bool]:
        """(the datasets the cells read, each fixed file or generator and seed; whether every one is the write-up's
        own bytes: a committed file whose manifest provenance names the write-up)."""
        names = sorted(set(cells["dataset"])) if "dataset" in cells else []
        entries = [self.manifest.datasets.get(name) for name in names] if self.manifest else []
        if not names or not entries:
            return ", ".join(names) or NOT_RECORDED, False
        shown = []
        for name, entry in list(zip(names, entries))[:3]:
            generator = entry.generator if entry else None
            made = f"generator {generator.get('name')}, seed {generator.get('seed')}" if generator else "fixed file"
            shown.append(f"{name} ({made}; sha256 {entry.sha256[:8] if entry else '?'}…)")
        more = f" and {len(names) - 3} more" if len(names) > 3 else ""
        own = all(e and not e.generator and e.provenance.startswith(f"Write-up {exp_id}") for e in entries)
        return "; ".join(shown) + more, own

    def _builds(self, lab: str, cells: pd.DataFrame) -> list[LabEnvironment]:
        labs = self.env.labs if self.env else {}
        targets = dict.fromkeys(Cell.target_of(lab, r) for r in cells.loc[cells["lab"] == lab, "runtime_requested"])
        return [labs[t] for t in targets if t in labs]

    def isa_state(self, level: str, lab: str) -> str | None:
        """None when this host can run the level for the lab; else why not (its probe's state and detail)."""
        labs = self.env.labs if self.env else {}
        probes = [build.isa_levels.get(level) for name, build in labs.items() if name.split("@")[0] == lab]
        if not probes:
            return "no build of the lab was probed in this run"
        if any(p and p.get("state") in RUNNABLE_STATES for p in probes):
            return None
        first = next((p for p in probes if p), None)
        return f"{first.get('state')}: {first.get('detail', '')}".strip() if first else f"level {level} not probed"

    def runtime(self, hardware: Hardware, cells: pd.DataFrame, lab: str) -> tuple[str, bool, str | None]:
        """(the runtimes this run measured the lab on, whether one is the published version, how to run that version
        here when the lab is built for it but this run did not measure it)."""
        builds = self._builds(lab, cells)
        here = ", ".join(dict.fromkeys(b.runtime_description for b in builds)) or NOT_RECORDED
        published = self.published_version(hardware)
        if published is None or published.count(".") < 2:  # "3.1": the patch release is not stated
            return here, False, None
        if any(str(b.env.get("runtime_version", "")) == published for b in builds):
            return here, True, None
        spec = self.labs.get(lab)
        match = next((r.name for r in (spec.runtimes.values() if spec else ()) if r.version == published), None)
        return here, False, f"`--runtime {match}` (not measured in this run)" if match else None

    @staticmethod
    def published_version(hardware: Hardware) -> str | None:
        """The runtime version published, as exact as the write-up gives it: the hardware's `runtime` ('.NET 8.0.0',
        '.NET Core 3.1'), else the first version of its runtime build."""
        for text in (hardware.runtime, hardware.setup.runtime_build):
            found = _VERSION.search(text)
            if found:
                return found.group(0)
        return None

    def runtime_choices(self, lab: str, hardware: Hardware) -> str:
        spec = self.labs.get(lab)
        versions = sorted({r.version for r in spec.runtimes.values()}) if spec else []
        published = self.published_version(hardware) or "?"
        if published.count(".") < 2:
            return f"the write-up does not give the patch release of {published}; lab {lab} is built for " + (
                ", ".join(v for v in versions if v.startswith(published + ".")) or "none of that line"
            )
        return f"lab {lab} is built for {', '.join(versions) or 'no runtime'} here, not {published}"

    def library_summary(self, exp: Experiment, cells: pd.DataFrame) -> tuple[str, list[str]]:
        """(the versions this run loaded, 'name here (published x)' for each that differs)."""
        measured = measured_versions(exp, self.env, cells)
        here = ", ".join(f"{name} {', '.join(v) or 'not loaded'}" for name, v in measured.items()) or NOT_RECORDED
        differing = [
            f"{name} {', '.join(v) or 'not loaded'} (published {exp.published_versions[name]})"
            for name, v in measured.items()
            if v != [exp.published_versions[name]]
            and not name.startswith("System.Text.Json")  # in-box: the runtime build's row
            and "not stated" not in exp.published_versions[name]
        ]
        return here, differing

    def _settings(self, cells: pd.DataFrame, name: str) -> set[str]:
        column = cells["run_settings"] if "run_settings" in cells else pd.Series(dtype=object)
        return {str(s.get(name)) for s in column if isinstance(s, dict) and s.get(name)}

    def gc(self, cells: pd.DataFrame) -> str:
        asked = self._settings(cells, "gc")
        if asked:
            return ", ".join(sorted(asked)) + " (run setting)"
        modes = set()
        for build in self._builds(str(cells["lab"].iloc[0]), cells) if not cells.empty else []:
            gc = build.env.get("gc") or {}
            if isinstance(gc, dict) and "server" in gc:
                modes.add(
                    ("server" if gc["server"] else "workstation") + (", concurrent" if gc.get("concurrent") else "")
                )
        return (", ".join(sorted(modes)) + " (the runtime's default)") if modes else NOT_RECORDED

    def tiered(self, cells: pd.DataFrame) -> str:
        asked = self._settings(cells, "tiered_compilation")
        return ", ".join(sorted(asked)) + " (run setting)" if asked else "on (the runtime's default)"

    def has_setting(self, lab: str, name: str, value: str) -> bool:
        spec = self.labs.get(lab)
        return bool(spec and name in spec.run_settings and value in spec.run_settings[name].values)
