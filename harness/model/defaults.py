"""Every default the harness uses, in one place (paths, pinning, timeouts); the run folder's own names are in
harness/model/folder/run_folder.py."""

from __future__ import annotations

import pathlib

#: Repository root: the folder holding harness/, lab/, datasets/, experiments/.
REPO_ROOT = pathlib.Path(__file__).resolve().parents[2]

EXPERIMENTS_DIR = REPO_ROOT / "experiments"
#: The JSON Schema of experiment files (editors read it through each file's `#:schema` first line; so does the loader).
EXPERIMENT_SCHEMA_FILE = EXPERIMENTS_DIR / "experiment.schema.json"
PROFILES_FILE = EXPERIMENTS_DIR / "profiles.toml"
LABS_DIR = REPO_ROOT / "lab"
DATASETS_DIR = REPO_ROOT / "datasets"
ISA_LEVELS_FILE = REPO_ROOT / "harness" / "config" / "isa_levels.toml"
RESULTS_DIR = REPO_ROOT / "results"
#: What the lab needs on a machine (tools, libraries, their packages): set-up, `harness doctor` and the run's preflight.
PREREQUISITES_FILE = REPO_ROOT / "prerequisites.toml"

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
#: under this share of their median warm-up time, did not finish tiering up, and is set aside
# (harness/model/stats/warmup_check.py).
#: Cut-short ones seen: 1-40% of the median count in 15-37% of the time; healthy ones: 71-110% of the count, 80-120% of
# the time.
SHORT_WARMUP_FRACTION = 0.75

#: Confidence level of the interval stored in result rows (BenchmarkDotNet prints 99.9%).
CONFIDENCE_LEVEL = 0.99
