"""Each lab's variants, operations and models by name (harness/config/lab_catalog.toml), for checks made before any
build.

The lists are copies of the labs' own registries (a test keeps them in step); a lab without an entry is not checked
here, and its names are still checked when the lab is probed after its build (harness/session/probe.py).
"""

from __future__ import annotations

import pathlib
import tomllib
from dataclasses import dataclass, field

from harness.config.defaults import LAB_CATALOG_FILE
from harness.model.errors import ConfigError


@dataclass(frozen=True)
class Display:
    """How a reader sees one variant: a name in place of the registry's library name (None: keep the library's), and a
    short settings line."""

    settings: str
    name: str | None = None


@dataclass(frozen=True)
class LabNames:
    """What one lab offers: None where the catalog does not say (that name is not checked before the build)."""

    variants: tuple[str, ...] | None = None
    operations: tuple[str, ...] | None = None
    models: tuple[str, ...] | None = None
    display: dict[str, Display] = field(default_factory=dict)


def _names(spec: dict, key: str) -> tuple[str, ...] | None:
    return tuple(spec[key]) if key in spec else None


def _display(entry: str | dict) -> Display:
    """A display entry: a settings string, or a table {settings, name}."""
    return Display(entry) if isinstance(entry, str) else Display(entry["settings"], entry.get("name"))


def load_lab_catalog(path: pathlib.Path = LAB_CATALOG_FILE) -> dict[str, LabNames]:
    """Every catalogued lab by name."""
    try:
        data = tomllib.loads(path.read_text())
        return {
            name: LabNames(
                variants=_names(spec, "variants"),
                operations=_names(spec, "operations"),
                models=_names(spec, "models"),
                display={variant: _display(entry) for variant, entry in spec.get("display", {}).items()},
            )
            for name, spec in data["labs"].items()
        }
    except (KeyError, TypeError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(
            f"{path} is malformed: {e!r}",
            "each [labs.<name>] table holds lists of strings (variants, operations, models) and a display table "
            '(variant = "settings" or { name = "…", settings = "…" })',
        ) from e
