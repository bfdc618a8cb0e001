"""Each lab's variants, operations and models by name (lab/<lab>/catalog.toml, beside its lab.toml), for checks made
before any build.

The lists are copies of the lab's own registry (a test beside the file keeps them in step); a lab without a catalog is
not checked here, and its names are still checked when the lab is probed after its build
(harness/session/processes/probe.py).
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass, field

from harness.config.data_files import TomlTable, TomlValue, read_toml, toml_array
from harness.config.lab.variant_settings import Offered, base_of, check_settings
from harness.model.defaults import LABS_DIR
from harness.model.errors import ConfigError, UnknownNameError


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
    # Composite operations (two steps in one timed call), each with the variants that run it
    composites: dict[str, tuple[str, ...]] = field(default_factory=dict)
    display: dict[str, Display] = field(default_factory=dict)
    # What each variant that takes settings takes (harness/config/lab/variant_settings.py): variant -> setting -> values
    settings: dict[str, Offered] = field(default_factory=dict)


def _names(spec: TomlTable, key: str) -> tuple[str, ...] | None:
    """The names of a list the catalog has (_catalog checked it is one), None when it has none."""
    return tuple(str(name) for name in toml_array(spec[key])) if key in spec else None


def _display(entry: TomlValue) -> Display:
    """A display entry: a settings string, or a table {settings, name}; TypeError when it is neither."""
    if isinstance(entry, str):
        return Display(entry)
    settings, name = (entry["settings"], entry.get("name")) if isinstance(entry, dict) else (None, None)
    if not isinstance(settings, str) or (name is not None and not isinstance(name, str)):
        raise TypeError(f"the display entry {entry!r} is not a settings string or a table of settings and name strings")
    return Display(settings, name)


#: A lab's catalog: beside its lab.toml.
CATALOG_FILE = "catalog.toml"
_KEYS = {"schema_version", "variants", "operations", "models", "display", "settings", "composites"}


def load_lab_catalog(labs_dir: pathlib.Path = LABS_DIR) -> dict[str, LabNames]:
    """Every catalogued lab by name (its lab.toml's `name`)."""
    catalog = {}
    for path in sorted(labs_dir.glob(f"*/{CATALOG_FILE}")):
        lab = path.parent / "lab.toml"
        if not lab.is_file():
            raise ConfigError(
                f"{path} has no lab.toml beside it", f"move it into its lab's folder: lab/<lab>/{CATALOG_FILE}"
            )
        name = read_toml(lab, "fix the lab's lab.toml (docs/lab-contract.md)").get("name", path.parent.name)
        catalog[str(name)] = _catalog(path)
    return catalog


def _catalog(path: pathlib.Path) -> LabNames:
    """One lab's catalog.toml."""
    spec = read_toml(path, "fix the catalog (its variants, operations, models and [display])")
    unknown = sorted(set(spec) - _KEYS)
    try:
        if unknown:
            raise KeyError(f"unknown key(s) {', '.join(unknown)}")
        if not all(isinstance(spec.get(k, []), list) for k in ("variants", "operations", "models")):
            raise TypeError("variants, operations and models are lists of names")
        composites: TomlValue = spec.get("composites", {})
        if not isinstance(composites, dict) or not all(isinstance(v, list) for v in composites.values()):
            raise TypeError("[composites] maps each composite operation to a list of variants")
        display: TomlValue = spec.get("display", {})
        if not isinstance(display, dict):
            raise TypeError("[display] maps each variant to its settings line")
        return LabNames(
            variants=_names(spec, "variants"),
            operations=_names(spec, "operations"),
            models=_names(spec, "models"),
            composites={str(op): tuple(str(v) for v in toml_array(variants)) for op, variants in composites.items()},
            display={variant: _display(entry) for variant, entry in display.items()},
            settings=_settings(spec.get("settings", [])),
        )
    except (KeyError, TypeError, AttributeError) as e:
        raise ConfigError(
            f"{path} is malformed: {e}",
            "a catalog holds lists of names (variants, operations, models), a [display] table "
            '(variant = "settings" or { name = "…", settings = "…" }) and [[settings]] entries '
            "(variants = [names], [settings.values] setting = [values])",
        ) from None


def _settings(entries: TomlValue) -> dict[str, Offered]:
    """[[settings]] entries: each lists variants and the values of each setting they take."""
    if not isinstance(entries, list):
        raise TypeError("settings is a list of [[settings]] entries")
    offered: dict[str, Offered] = {}
    for entry in entries:
        variants, table = (entry.get("variants"), entry.get("values")) if isinstance(entry, dict) else (None, None)
        if (
            not isinstance(entry, dict)
            or set(entry) != {"variants", "values"}
            or not isinstance(variants, list)
            or not isinstance(table, dict)
            or not all(isinstance(v, list) for v in table.values())
        ):
            raise KeyError("each [[settings]] entry has a `variants` list and a [settings.values] table of lists")
        values = {str(k): tuple(str(v) for v in toml_array(vs)) for k, vs in table.items()}
        offered.update({str(variant): values for variant in variants})
    return offered


def check_variant_and_operation(
    names: LabNames, lab: str, variant: str, operation: str, unavailable: bool, what: str
) -> None:
    """A benchmark's variant (with the settings it names) and operation (or composite) are ones its lab offers; an
    unavailable benchmark's variant is free text (no adapter exists)."""
    base = base_of(variant)
    if names.variants is not None and not unavailable:
        if base not in names.variants:
            raise UnknownNameError("variant", base, names.variants, f"of lab {lab} {what}")
        check_settings(variant, names.settings.get(base), f"lab {lab} {what}")
    offered = (names.operations or ()) + tuple(names.composites)
    if names.operations is not None and operation not in offered:
        raise UnknownNameError("operation", operation, offered, f"of lab {lab} {what}")
    if operation in names.composites and base not in names.composites[operation] and not unavailable:
        raise ConfigError(
            f"variant {base!r} {what} cannot run the composite {operation} (its steps in one call)",
            f"lab {lab}'s variants that can: {', '.join(names.composites[operation])} "
            "(docs/experiments.md#composite-operations-several-steps-in-one-timed-call)",
        )
