"""Normalizers turn a lab's raw cell output into CellOutcome records; one module per raw format."""

from harness.normalize.bdn import normalize_bdn_cell
from harness.normalize.gbench import normalize_gbench_cell
from harness.normalize.samples import normalize_samples_cell

#: The visible registry: lab.toml's raw_format → normalizer.
#: The lab contract's language-neutral raw format (every lab's `paired` and `shot` verbs write it).
SAMPLES_FORMAT = "samples"
NORMALIZERS = {"bdn": normalize_bdn_cell, "gbench": normalize_gbench_cell, SAMPLES_FORMAT: normalize_samples_cell}

__all__ = ["NORMALIZERS", "SAMPLES_FORMAT", "normalize_bdn_cell", "normalize_gbench_cell", "normalize_samples_cell"]
