"""The header BenchmarkDotNet prints above its tables: its version, the OS, the CPU, the SDK and each job's runtime
line, read into an Environment."""

from __future__ import annotations

import re
from dataclasses import dataclass, field


def _is_table_line(line: str) -> bool:
    return "|" in line


@dataclass(frozen=True)
class Environment:
    """The report's header: what BenchmarkDotNet printed about where it ran (None: not printed)."""

    bdn_version: str | None = None
    os: str | None = None
    cpu: str | None = None
    sdk: str | None = None
    jobs: dict[str, str] = field(default_factory=dict)  # job name ("Host" for [Host]) -> its runtime line
    settings: str = ""  # the job settings line(s), e.g. "MaxIterationCount=10  MinIterationCount=5"

    @property
    def measured_jobs(self) -> dict[str, str]:
        """The jobs that ran benchmarks (every job but [Host], unless [Host] is all there is)."""
        return {k: v for k, v in self.jobs.items() if k != "Host"} or dict(self.jobs)

    @property
    def job_settings(self) -> dict[str, str]:
        """The job settings all jobs share, by name: 'Toolchain=InProcessEmitToolchain  IterationCount=3' ->
        {'Toolchain': 'InProcessEmitToolchain', 'IterationCount': '3'} (BenchmarkDotNet parts them by two spaces)."""
        pairs = (part.split("=", 1) for part in re.split(r"\s{2,}", self.settings) if "=" in part)
        return {name.strip(): value.strip() for name, value in pairs}


_BDN = re.compile(r"BenchmarkDotNet[= ]v?(\d+\.\d+(?:\.\d+)*(?:[-+][\w.]+)?)(?:,\s*(?:OS=)?(.*))?")


_CPU = re.compile(r"^\s*(.+?),\s*\d+\s+CPUs?,\s*\d+\s+logical")


_SDK = re.compile(r"\.NET(?: Core)?(?: Command-Line)? SDK[= ]v?([\w.\-]+)", re.I)


_JOB = re.compile(r"^\s*(\[Host\]|[^:=]+?)\s*:\s*((?:\.NET|Mono|CoreRT|NativeAOT|Native AOT)\b.*)$")


def _header_blocks(lines: list[str]) -> list[tuple[int, list[str]]]:
    """(first line index, lines) of each header: a BenchmarkDotNet line and what follows it up to a table or blank
    gap."""
    blocks = []
    for i, line in enumerate(lines):
        if _BDN.search(line) and not line.lstrip().startswith("|"):
            block = []
            for following in lines[i:]:
                if _is_table_line(following) and "Method" in following:
                    break
                block.append(following)
                if len(block) > 30:
                    break
            blocks.append((i, block))
    return blocks


def parse_environment(lines: list[str]) -> Environment:
    """The fields of one header block (lines with ``` fences or without)."""
    version = os_name = cpu = sdk = None
    jobs: dict[str, str] = {}
    settings = []
    for raw in lines:
        line = raw.strip().strip("`").strip()
        if not line or line.lower() in ("ini", "text"):
            continue
        if version is None and (m := _BDN.search(line)):
            version, os_name = m.group(1), (m.group(2) or "").strip() or None
            continue
        if cpu is None and (m := _CPU.match(line)):
            cpu = m.group(1).strip()
            continue
        if sdk is None and (m := _SDK.search(line)):
            sdk = m.group(1)
            continue
        if m := _JOB.match(line):
            jobs[m.group(1).strip("[]").strip()] = m.group(2).strip()
            continue
        if "=" in line and version is not None:
            settings.append(line)
    return Environment(version, os_name, cpu, sdk, jobs, "  ".join(settings))
