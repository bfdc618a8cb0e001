"""Normalizers turn a lab's raw cell output into CellOutcome records; one module per raw format."""

from harness.normalize.bdn import normalize_bdn_cell

#: The visible registry: lab.toml's raw_format → normalizer.
NORMALIZERS = {"bdn": normalize_bdn_cell}

__all__ = ["NORMALIZERS", "normalize_bdn_cell"]
