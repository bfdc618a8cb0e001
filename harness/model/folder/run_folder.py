"""The run folder, results/<run-id>/: the name of every file and folder a run writes there, and the schema versions of
its records, in one place. The harness writes these and the analysis reads them; neither spells a name itself.

    results/latest -> <run-id>/      LATEST_LINK
    <run-id>/results.jsonl           RESULTS_FILE      one row per cell and process (records.py)
             environment.json        ENVIRONMENT_FILE  the host, its CPU state and the lab builds
             run.json                RUN_FILE          what was asked for: profile, options, design, budget
             timeline.jsonl          TIMELINE_FILE     where each session spent its wall time
             groups.jsonl            GROUPS_FILE       how each group of a session stopped
             calibration.jsonl       CALIBRATION_FILE  the reference workloads before and after measuring
             noise_probe.json        NOISE_PROBE_FILE  the first processes' noise, what the budget will decide
             conformance.jsonl       CONFORMANCE_FILE  JSONTestSuite outcomes per lab, parser and file
             experiments/, labs/     KEPT_*_DIR        the experiment files and each lab's lab.toml + catalog.toml
             raw/<cell>/round-N/     RAW_DIR           each process's own output (raw/conformance/<lab>/ for the suite)
             logs/                   LOGS_DIR          one log per cell and round, builds, images
             report/                 REPORT_DIR        report.md, report.html, tables/, charts/
"""

from __future__ import annotations

import re

#: Name of the symlink in the results folder that points at the newest run.
LATEST_LINK = "latest"

#: Result files inside results/<run-id>/.
RESULTS_FILE = "results.jsonl"
ENVIRONMENT_FILE = "environment.json"
RUN_FILE = "run.json"
#: Where each session of a run spent its wall time (one JSON line per phase: prepare, calibration, session).
TIMELINE_FILE = "timeline.jsonl"
#: How each group of a session stopped (one JSON line per group and session: state, rounds, widest ratio CI, machine
# time).
GROUPS_FILE = "groups.jsonl"
RAW_DIR = "raw"
#: A run over several hosts (harness/session/hosts_run.py): each host's run folder under hosts/, and hosts.json (each
#: host's facts and how its run ended).
HOSTS_DIR = "hosts"
HOSTS_FILE = "hosts.json"
#: A host name: lower-case letters, digits and "-" (it becomes part of row ids and the name of its folder under hosts/).
HOST_NAME = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")  # a whole name: fullmatch it (`$` alone takes "alpha\n")
LOGS_DIR = "logs"
#: The experiment files a run measured, copied as they were when it started: its report reads these, so a report
#: rendered again after the files changed (or of a run made with --experiments-dir) judges what was run.
KEPT_EXPERIMENTS_DIR = "experiments"
#: Each measured lab's lab.toml and catalog.toml (labs/<lab folder>/), copied as they were when the run started: the
#: report's display names, its speed-of-light lab and its vendor-terms notes come from these, so a run made with
#: another labs folder (or before a catalog changed) is reported with its own words.
KEPT_LABS_DIR = "labs"
KEPT_LAB_FILES = ("lab.toml", "catalog.toml")

#: Version of results.jsonl rows, environment.json and run.json written by this harness.
#: 2: rows are process-level replicates with design, partner and noise fields (rounds may stop adaptively).
#: 3: rows carry runtime_requested, the lab build (runtime) a cell ran on; rows of version 2 read as "default".
#: 4: rows carry runtime_switches (the runtime variables the process saw) and engine_version (e.g. BenchmarkDotNet
# 0.14.0).
#: 5: rows carry backend, image, image_id (containers) and cpuset_effective (the CPUs read back inside the process).
#: 6: rows carry payload_bytes (the JSON text an operation reads or writes, for throughput in MB/s).
#: 7: rows carry process_cells, burst_ns and bursts_ms (the paired design: several cells in one process).
#: 8: rows carry native_anchor_ns and native_anchors_sha256 (the paired design's native anchors, when asked for).
#: 9: rows carry rounds_compilations (the JIT compilations during a paired process's timed rounds).
#: 10: rows carry handover_wait_ms and rewarm_ms (a process of the paired-pipelined design, handed to the lab's CPU).
#: 11: rows carry warm_line_ms, warm_cpu_ms and extra_rounds_ms (a handed-over process: its time to warm, the CPU
#: time it used by then, and the extra rounds it played while the next one warmed).
#: 12: rows carry lab_warm_ms (a handed-over process moved before it was warm: its warm-up on the lab's CPU).
SCHEMA_VERSION = 12

#: Versions this harness still reads: a version-2 row is a version-3 row on the lab's only build ("default"); a
#: version-3 row lacks only the two version-4 fields (empty switches, unknown engine); rows before 5 lack the backend
#: fields (they all ran on the host backend); rows before 6 lack payload_bytes (no throughput).
#: Rows and environment.json written before the host backend had its name store it as "native"
#: (harness/model/folder/stored_names.py reads them as host).
READABLE_SCHEMA_VERSIONS = (2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12)

#: The reference workloads timed on the lab's CPU before and after measuring (harness/session/rounds/calibration.py).
CALIBRATION_FILE = "calibration.jsonl"
#: The noise probe at the start of a budgeted run and its forecast of what the budget decides
#: (harness/session/rounds/noise_probe.py).
NOISE_PROBE_FILE = "noise_probe.json"
#: JSONTestSuite outcomes, one record per lab, parser and suite file (`harness conformance`).
CONFORMANCE_FILE = "conformance.jsonl"

#: The report the analysis writes into the run folder, and its sub-folders.
REPORT_DIR = "report"
TABLES_DIR = "tables"
CHARTS_DIR = "charts"
REPORT_MD = "report.md"
REPORT_HTML = "report.html"


def relative_to_run(text: str, run_id: str) -> str:
    """The text with every absolute path into a run folder named `run_id` written relative to that folder
    (`/root/lab/results/<run_id>/logs/x.log` → `logs/x.log`), wherever the run was made or copied from."""
    return re.sub(rf"/[^\s'\"(),;]*?/{re.escape(run_id)}/", "", text)
