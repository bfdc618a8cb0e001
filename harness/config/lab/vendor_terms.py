"""Packages under their vendor's terms, not an open-source licence (docs/licences.md), and the user's acceptance.

A lab declares each such package in its lab.toml `[vendor_terms."<package>"]`: the variants that need it, and the
template values of a build that includes it (they replace the runtime's: its lock files, the switch that compiles it
in), and the extra lock files an offline image build restores from. The default build leaves the package out, and
its variants' cells are "unavailable" with the reason and the opt-in. A user who accepts the terms says so in
`lab.local.toml` at the repository root (not committed; JSONLAB_LOCAL_SETTINGS names another file), one line:

    accept_vendor_terms = ["ServiceStack.Text"]

The file is the user's input: it is read bounded and checked, and a broken one is an error with the fix.
"""

from __future__ import annotations

import os
import pathlib
from dataclasses import dataclass

from harness.config.data_files import TomlTable, TomlValue, read_toml, toml_array, toml_table
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

#: The user's local settings (not committed: .gitignore).
LOCAL_SETTINGS = REPO_ROOT / "lab.local.toml"
#: Bytes a local settings file may have (it holds a line or two).
MAX_LOCAL_SETTINGS_BYTES = 64 * 1024
#: The keys lab.local.toml may have.
LOCAL_KEYS = ("accept_vendor_terms",)


@dataclass(frozen=True)
class VendorPackage:
    """One package under its vendor's terms: its variants, the template values of a build that includes it, and the
    lock files an offline image build of such a build restores from."""

    name: str
    variants: tuple[str, ...]
    values: dict[str, str]
    offline_lock_files: tuple[str, ...] = ()

    def unavailable_reason(self) -> str:
        """What a cell of one of its variants says when the terms are not accepted (one line, no parenthesis: the
        report keeps an error's text up to its first " (")."""
        return (
            f"not measured: {self.name} is under its vendor's terms, not an open-source licence, see docs/licences.md; "
            f'to accept them and measure it, add accept_vendor_terms = ["{self.name}"] to lab.local.toml'
        )

    def accepted_note(self) -> str:
        """What a figure of one of its variants says when the user accepted the terms."""
        return f"{self.name} is under its vendor's terms, not an open-source licence; accepted in lab.local.toml"


def parse_vendor_packages(data: TomlTable, where: str) -> dict[str, VendorPackage]:
    """lab.toml's [vendor_terms] tables."""
    terms: TomlValue = data.get("vendor_terms", {})
    if not isinstance(terms, dict):
        raise ConfigError(f"{where}: vendor_terms is {terms!r}, not a table", "compare it with lab/dotnet/lab.toml")
    packages = {}
    for name, spec in terms.items():
        table = toml_table(spec)
        variants, values, locks = table.get("variants"), table.get("values", {}), table.get("offline_lock_files", [])
        if not isinstance(spec, dict) or not isinstance(variants, list) or not variants or not isinstance(values, dict):
            raise ConfigError(
                f"{where}: [vendor_terms.{name!r}] needs `variants` (a list) and `values` (a table)",
                "compare it with lab/dotnet/lab.toml",
            )
        if not isinstance(locks, list):
            raise ConfigError(
                f"{where}: [vendor_terms.{name!r}] offline_lock_files is {locks!r}, not a list of lock files",
                "compare it with lab/dotnet/lab.toml",
            )
        packages[name] = VendorPackage(
            name,
            tuple(str(v) for v in variants),
            {k: str(v) for k, v in values.items()},
            tuple(str(f) for f in locks),
        )
    return packages


def local_settings_path() -> pathlib.Path:
    return pathlib.Path(os.environ.get("JSONLAB_LOCAL_SETTINGS") or LOCAL_SETTINGS)


def accepted_terms(path: pathlib.Path | None = None) -> frozenset[str]:
    """The packages whose vendor's terms the user accepted (none without the file)."""
    path = path or local_settings_path()
    if not path.is_file():
        return frozenset()
    fix = 'lab.local.toml holds one line: accept_vendor_terms = ["ServiceStack.Text"] (or remove the file)'
    data = read_toml(path, fix, MAX_LOCAL_SETTINGS_BYTES)
    unknown = sorted(set(data) - set(LOCAL_KEYS))
    if unknown:
        raise ConfigError(f"{path}: unknown setting {', '.join(map(repr, unknown))}", fix)
    accepted: TomlValue = data.get("accept_vendor_terms", [])
    names = [name for name in toml_array(accepted) if isinstance(name, str)]
    if not isinstance(accepted, list) or len(names) != len(accepted):
        raise ConfigError(f"{path}: accept_vendor_terms must be a list of package names", fix)
    return frozenset(names)


def check_accepted(accepted: frozenset[str], declared: set[str]) -> None:
    """ConfigError when the user accepted the terms of a package no lab declares (`declared`: the labs' packages)."""
    unknown = sorted(accepted - declared)
    if unknown:
        raise ConfigError(
            f"{local_settings_path()} accepts the terms of {', '.join(map(repr, unknown))}, which no lab uses",
            f"packages under their vendor's terms: {', '.join(sorted(declared)) or 'none'} (docs/licences.md)",
        )
