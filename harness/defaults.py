"""Every default the harness uses, in one place (paths, pinning, timeouts, file names)."""

from __future__ import annotations

import pathlib

#: Repository root: the folder holding harness/, lab/, datasets/, experiments/.
REPO_ROOT = pathlib.Path(__file__).resolve().parent.parent

EXPERIMENTS_DIR = REPO_ROOT / "experiments"
#: The JSON Schema of experiment files (editors read it through each file's `#:schema` first line; so does the loader).
EXPERIMENT_SCHEMA_FILE = EXPERIMENTS_DIR / "experiment.schema.json"
PROFILES_FILE = EXPERIMENTS_DIR / "profiles.toml"
LABS_DIR = REPO_ROOT / "lab"
DATASETS_DIR = REPO_ROOT / "datasets"
ISA_LEVELS_FILE = pathlib.Path(__file__).resolve().parent / "isa_levels.toml"
#: The variants, operations and models of each lab, for the checks that run before any build (harness/lab_catalog.py).
LAB_CATALOG_FILE = pathlib.Path(__file__).resolve().parent / "lab_catalog.toml"
RESULTS_DIR = REPO_ROOT / "results"
#: What the lab needs on a machine (tools, libraries, their packages): set-up, `harness doctor` and the run's preflight.
PREREQUISITES_FILE = REPO_ROOT / "prerequisites.toml"

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
LOGS_DIR = "logs"

#: Version of results.jsonl rows, environment.json and run.json written by this harness.
#: 2: rows are process-level replicates with design, partner and noise fields (rounds may stop adaptively).
#: 3: rows carry runtime_requested, the lab build (runtime) a cell ran on; rows of version 2 read as "default".
#: 4: rows carry runtime_switches (the runtime variables the process saw) and engine_version (e.g. BenchmarkDotNet
# 0.14.0).
#: 5: rows carry backend, image, image_id (containers) and cpuset_effective (the CPUs read back inside the process).
#: 6: rows carry payload_bytes (the JSON text an operation reads or writes, for throughput in MB/s).
#: 7: rows carry process_cells, burst_ns and bursts_ms (the paired design: several cells in one process).
SCHEMA_VERSION = 7

#: Versions this harness still reads: a version-2 row is a version-3 row on the lab's only build ("default"); a
#: version-3 row lacks only the two version-4 fields (empty switches, unknown engine); rows before 5 lack the backend
#: fields (they all ran natively); rows before 6 lack payload_bytes (no throughput).
READABLE_SCHEMA_VERSIONS = (2, 3, 4, 5, 6, 7)

#: Version of the configuration files this harness reads (experiments/*.toml, profiles.toml).
CONFIG_SCHEMA_VERSION = 1

#: Profile used when none is named.
DEFAULT_PROFILE = "default"

#: Seconds one cell may take before it is stopped and recorded as failed.
CELL_TIMEOUT_S = 30 * 60

#: Seconds a lab's `env` probe may take.
PROBE_TIMEOUT_S = 120

#: Seconds a lab build may take.
BUILD_TIMEOUT_S = 20 * 60

#: What one process (replicate) contributes to a cell: the median of its timed iterations. On this kind of VM a
#: process's iterations are steady except for transient bursts (100–300 ms at about 2× the time) that BenchmarkDotNet's
#: upper-outlier removal misses with few iterations; the median is robust to them, the mean is not (README).
REPLICATE_STATISTIC = "median_ns"

#: A process whose warm-up compiled fewer than this share of the median JIT compilations over its cell's processes, in
#: under this share of their median warm-up time, did not finish tiering up, and is set aside (harness/warmup_check.py).
#: Cut-short ones seen: 1-40% of the median count in 15-37% of the time; healthy ones: 71-110% of the count, 80-120% of
# the time.
SHORT_WARMUP_FRACTION = 0.75

#: Confidence level of the interval stored in result rows (BenchmarkDotNet prints 99.9%).
CONFIDENCE_LEVEL = 0.99
