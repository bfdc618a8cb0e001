"""The hardware entries an import writes: one per machine and job of the reports, each with the job's runtime, the ISA
level its code ran at, the published CPU's microarchitecture (or vendor) and the lab runtimes standing in for the
runtime, or why none can (hardware.py). A row finds its job's line in the header by its Job or Runtime column, and
among jobs of one runtime by the ISA switches it set."""

from __future__ import annotations

from dataclasses import dataclass

from harness.bdn.cpu import PrintedCpu, read_cpu
from harness.bdn.hardware import serve
from harness.bdn.jobs import OWN_PROCESS, JobReading, job_switches, line_isa, read_job, requested_level, runtime_of
from harness.bdn.report_header import Environment
from harness.bdn.report_tables import Row
from harness.config.cpu_models import VENDOR_ARCH, VENDOR_NAMES
from harness.config.experiment.experiment_schema import TODO
from harness.config.isa import IsaTable, level_order
from harness.config.lab.labs import LabSpec

#: The 64-bit architecture a job's code belongs to: a 32-bit job runs on a CPU of its 64-bit family.
CPU_ARCH = {"x64": "x64", "x86": "x64", "arm64": "arm64", "arm": "arm64"}


@dataclass
class ImportedHardware:
    """One [hardware.<key>] entry: where a job's figures were published, in the experiment file's terms."""

    key: str
    description: str
    runtime: str
    isa_level: str
    isa_comment: str
    lab_runtimes: list[str]
    runtime_comment: str
    machine: str = ""  # the CPU and OS as printed (claims across runtimes note two machines)
    microarchitecture: str | None = None  # a key of harness/config/cpu_models.toml
    cpu_vendor: str | None = None  # where the microarchitecture is not known (or a TODO: an Arm64 job's CPU)
    cpu_comment: str = ""
    unserved: str | None = None  # why no lab runtime serves the job: its claims say "cannot reproduce: <this>"
    place: tuple[str | None, ...] = ()  # architecture, ISA level, toolchain: rows across runtimes pair within one place


def _same_job(column: str, job_id: str, runtime: str | None) -> bool:
    """Whether a row's Job or Runtime column ('.NET 8.0', 'Mono') names the header's job `job_id` ('.NET 8.0',
    'Job-KXPQRS') whose line says `runtime` ('.NET 8.0.4', 'Mono 6.12.0'): by the id, or by the runtime's version line
    or family."""
    return column.startswith(job_id) or (
        runtime is not None
        and (runtime == column or runtime.startswith(column + ".") or runtime.startswith(column + " "))
    )


def job_line(env: Environment, job: str | None, columns: dict[str, str], isa: IsaTable) -> tuple[str, str | None]:
    """(the job's name, its line in the header) for a row's Job or Runtime column and job columns; the line is None
    where no header line is surely this job's."""
    jobs = env.measured_jobs
    if job and job in jobs:
        return job, jobs[job]
    if len(jobs) == 1:
        return next(iter(jobs.items()))
    found = [(k, v) for k, v in jobs.items() if job is None or _same_job(job, k, runtime_of(v))]
    if len(found) > 1 and len({v for _, v in found}) == 1:
        found = found[:1]  # one line for several jobs (toolchains): the line is all they tell
    if len(found) > 1:  # jobs of one runtime at several ISA levels: the row's switches pick the line that shows them
        levels = {k: line_isa(v)[0] for k, v in found}
        order = level_order()
        switches = job_switches(columns)
        asked = (
            requested_level(switches, isa)
            if switches
            else min(filter(None, levels.values()), key=order.index, default=None)
        )
        found = [(k, v) for k, v in found if levels[k] == asked] or found
    return found[0] if len(found) == 1 else (job or "", None)


class Machines:
    """The hardware entries met so far, one per machine, runtime and place."""

    def __init__(self, lab: LabSpec, isa: IsaTable) -> None:
        self.lab, self.isa = lab, isa
        self.entries: dict[tuple, ImportedHardware] = {}

    def hardware_for(self, env: Environment, row: Row | None, source: str = "") -> ImportedHardware:
        """The entry of the job a row ran in (its Job or Runtime column, its job columns, the header's settings)."""
        columns = {**env.job_settings, **(row.job_columns if row else {})}
        name, line = job_line(env, row.job if row else None, columns, self.isa)
        cpu = read_cpu(env.cpu)
        job = read_job(name, line, columns, cpu, self.isa)
        key: tuple = (env.bdn_version, env.os, env.cpu, env.sdk, job.runtime or line)
        if not any(key):  # a report without its header: one entry per file, each asking for its own machine
            key = (source,)
        key += (job.toolchain, job.arch, job.isa_level, job.switches)
        if key not in self.entries:
            self.entries[key] = self._entry(f"H{len(self.entries) + 1}", env, job, cpu, source)
        return self.entries[key]

    def _entry(self, key: str, env: Environment, job: JobReading, cpu: PrintedCpu, source: str) -> ImportedHardware:
        serving = serve(job, env.sdk, self.lab)
        levels = ", ".join(dict.fromkeys(n for table in self.isa.levels.values() for n in table))
        runtime = job.runtime or (f".NET SDK {env.sdk} (runtime not printed)" if env.sdk else None)
        parts = [env.cpu, env.os, runtime, f"BenchmarkDotNet {env.bdn_version}" if env.bdn_version else None, job.name]
        parts += [job.toolchain if job.toolchain != OWN_PROCESS else None, ", ".join(job.switches), env.settings]
        level, isa_comment = job.isa_level, f"from the report: {job.isa_why}"
        if level is None and serving.unserved:
            level, isa_comment = "native", f"{job.isa_why}; a placeholder: no claim of this hardware is measured"
        microarchitecture, vendor, cpu_comment = _cpu_fields(cpu, job, env.cpu, serving.unserved is not None)
        return ImportedHardware(
            key=key,
            description="; ".join(p for p in parts if p)
            or f"{TODO}: the report printed no environment; the CPU, OS, runtime and BenchmarkDotNet version",
            runtime=runtime or f"{TODO}: the runtime the figures were measured on",
            isa_level=level or f"{TODO}: the ISA level matching the published CPU",
            isa_comment=isa_comment if level else f"{job.isa_why}; one of: {levels}",
            lab_runtimes=serving.runtimes
            or (
                []
                if serving.unserved
                else [f"{TODO}: the {self.lab.name} runtimes standing in for {runtime or 'the published runtime'}"]
            ),
            runtime_comment=serving.comment,
            machine=f"{env.cpu}; {env.os}" if env.cpu or env.os else f"not printed ({source})",
            microarchitecture=microarchitecture,
            cpu_vendor=vendor,
            cpu_comment=cpu_comment,
            unserved=serving.unserved,
            place=(CPU_ARCH.get(job.arch or "", cpu.arch), level, job.toolchain),
        )


def _cpu_fields(
    cpu: PrintedCpu, job: JobReading, printed: str | None, unserved: bool
) -> tuple[str | None, str | None, str]:
    """(microarchitecture, cpu_vendor, comment) of the published CPU: from its name (harness/config/cpu_models.toml
    [[printed_names]]); where the job's code is of another architecture than the CPU line's (an Arm64 job under an
    x64 CPU) or of an arm64 CPU the name does not tell, the vendor is the user's to name, one of that architecture's."""
    job_arch = CPU_ARCH.get(job.arch or "")
    if job_arch and (cpu.arch not in (None, job_arch) or (job_arch == "arm64" and cpu.arch is None)):
        named = f"an {cpu.arch} CPU" if cpu.arch else "no CPU this import knows"
        why = f"the job ran {job.arch} code, but the CPU line names {named} ({printed or 'not printed'})"
        if unserved:
            return None, None, f"{why}; no vendor written: no claim of this hardware is measured"
        vendors = ", ".join(v for v, arch in VENDOR_ARCH.items() if arch == job_arch)
        judged = "an arm64 figure is judged on an arm64 host only" if job_arch == "arm64" else "judged on x64 hosts"
        return (
            None,
            f"{TODO}: the vendor of the {job_arch} CPU that ran this job, one of: {vendors}",
            f"{why}: its figures are {job_arch} ones ({judged}; on other hosts alone they cannot be reproduced, "
            "docs/hosts.md)",
        )
    if cpu.microarchitecture:
        return cpu.microarchitecture, None, f"from the CPU line: {VENDOR_NAMES[cpu.vendor or '']} {cpu.name}"
    if cpu.vendor:
        return None, cpu.vendor, "from the CPU line; its microarchitecture is not in harness/config/cpu_models.toml"
    return None, None, ""
