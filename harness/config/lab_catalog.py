"""Each lab's variants, operations and models by name (harness/config/lab_catalog.toml), for checks made before any
build.

The lists are copies of the labs' own registries (a test keeps them in step); a lab without an entry is not checked
here, and its names are still checked when the lab is probed after its build (harness/session/probe.py).
"""

from __future__ import annotations

import pathlib
import tomllib
from dataclasses import dataclass

from harness.config.defaults import LAB_CATALOG_FILE
from harness.model.errors import ConfigError


@dataclass(frozen=True)
class LabNames:
    """What one lab offers: None where the catalog does not say (that name is not checked before the build)."""

    variants: tuple[str, ...] | None = None
    operations: tuple[str, ...] | None = None
    models: tuple[str, ...] | None = None


def load_lab_catalog(path: pathlib.Path = LAB_CATALOG_FILE) -> dict[str, LabNames]:
    """Every catalogued lab by name."""
    try:
        data = tomllib.loads(path.read_text())
        return {
            name: LabNames(*(tuple(spec[key]) if key in spec else None for key in ("variants", "operations", "models")))
            for name, spec in data["labs"].items()
        }
    except (KeyError, TypeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(
            f"{path} is malformed: {e!r}",
            "each [labs.<name>] table holds lists of strings: variants, operations, models",
        ) from e
