"""Licences as data (licences.toml): the open-source licences the lab accepts, the packages known to be under their
vendor's terms instead, and the evidence for licences a package's metadata does not state readably.

A verdict is computed here, from what a package declares (harness/licences/table.py `Declared`); the readers of
the lock files are harness/licences/nuget.py, npm.py and debian.py.
"""

from __future__ import annotations

import functools
import pathlib
import re
from dataclasses import dataclass
from typing import Any

import tomllib

from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

LICENCES_FILE = pathlib.Path(__file__).resolve().parent / "licences.toml"
SCHEMA_VERSION = 1
#: The verdicts of the table besides a vendor-terms entry's own.
OPEN_SOURCE = "open source"
OUTSIDE = "outside the allow-list"
NOT_READ = "not read"
ECOSYSTEMS = ("nuget", "npm", "debian")
_TOP_KEYS = {"schema_version", "sources", "allowed", "vendor_terms", "nuget", "npm", "debian"}
_SOURCE_KEYS = {
    "nuget_local_feed",
    "nuget_runtime_packs",
    "debian_bases",
    "debian_dockerfiles",
}
_PACK_KEYS = {"lab", "packs", "aot_packs", "rids", "rids_by_tfm"}
_VENDOR_KEYS = {"ecosystem", "reason", "figures", "verdict", "versions"}


@dataclass(frozen=True)
class Evidence:
    """A licence stated in licences.toml, and where it was read."""

    licence: str
    evidence: str


@dataclass(frozen=True)
class VendorTerms:
    """A package known to be under terms outside the allow-list, accepted with a reason."""

    package: str
    ecosystem: str
    reason: str
    figures: str  # what the figures measured with it say
    verdict: str  # the table's verdict column
    versions: tuple[str, ...] = ()  # empty: every version

    def covers(self, ecosystem: str, package: str, version: str) -> bool:
        return (ecosystem, package) == (self.ecosystem, self.package) and (
            not self.versions or version in self.versions
        )


@dataclass(frozen=True)
class RuntimePacks:
    """The NuGet packs a lab's runtimes bundle though no lock file lists them (`{rid}` in a pack name is filled in)."""

    lab: str  # the lab folder, relative to the repository
    packs: tuple[str, ...]  # every runtime's
    aot_packs: tuple[str, ...]  # a runtime with aot = "true" also
    rids: tuple[str, ...]
    rids_by_tfm: dict[str, tuple[str, ...]]  # the runtime identifiers of a target framework, when not `rids`

    def for_runtime(self, version: str, tfm: str, aot: bool) -> list[tuple[str, str]]:
        """(id, version) of the packs one runtime bundles."""
        names = self.packs + (self.aot_packs if aot else ())
        return [(name.format(rid=rid), version) for name in names for rid in self.rids_by_tfm.get(tfm, self.rids)]


#: A lab's lock files, found in its own folder at any depth (so a new lab's packages join the table with its folder):
#: NuGet's and npm's; never in what builds and installs leave there.
NUGET_LOCK_FILE, NPM_LOCK_FILE = "packages*.lock.json", "package-lock.json"
_NOT_SOURCES = frozenset({"bin", "obj", "build", "node_modules", ".git"})


def lab_lock_files(name_pattern: str, root: pathlib.Path = REPO_ROOT) -> tuple[str, ...]:
    """Every file named so in a lab folder (lab/<lab>/, at any depth but under _NOT_SOURCES), relative to `root`."""
    found = [
        path.relative_to(root).as_posix()
        for path in (root / "lab").glob(f"*/**/{name_pattern}")
        if not _NOT_SOURCES & set(path.relative_to(root).parts)
    ]
    return tuple(sorted(found))


@dataclass(frozen=True)
class LicenceSources:
    """Where the labs' packages are listed (paths relative to the repository; globs may match nothing): the lock files
    each lab folder holds (lab_lock_files), and the rest as licences.toml [sources] says."""

    nuget_lock_files: tuple[str, ...]
    nuget_local_feed: str
    nuget_runtime_packs: RuntimePacks
    npm_lock_files: tuple[str, ...]
    debian_bases: tuple[str, ...]
    debian_dockerfiles: tuple[str, ...]

    def paths(self, patterns: tuple[str, ...], root: pathlib.Path = REPO_ROOT) -> list[pathlib.Path]:
        """The files of these patterns: a plain path must exist, a glob yields what it matches."""
        found: list[pathlib.Path] = []
        for pattern in patterns:
            if any(c in pattern for c in "*?["):
                found += sorted(root.glob(pattern))
            elif (root / pattern).is_file():
                found.append(root / pattern)
            else:
                raise ConfigError(
                    f"{pattern} (licences.toml [sources]) does not exist", "fix the path or make it a glob"
                )
        return found


@dataclass(frozen=True)
class LicencePolicy:
    """licences.toml, read."""

    sources: LicenceSources
    allowed: dict[str, str]  # SPDX id -> its name
    vendor_terms: tuple[VendorTerms, ...]
    nuget_licence_urls: dict[str, Evidence]
    nuget_overrides: dict[tuple[str, str], Evidence]  # (id, version)
    node_builds: frozenset[str]
    node_build_note: str
    debian_overrides: dict[str, Evidence]

    def vendor_terms_for(self, ecosystem: str, package: str, version: str) -> VendorTerms | None:
        return next((v for v in self.vendor_terms if v.covers(ecosystem, package, version)), None)

    def is_allowed(self, expression: str) -> bool:
        return expression_allowed(expression, self.allowed)

    def verdict(self, ecosystem: str, package: str, version: str, licence: str, free_by_policy: bool) -> str:
        """The verdict of one package: its vendor-terms entry's, else open source when its licence is allowed (or its
        source is free by policy: Debian main), else outside the allow-list."""
        vendor = self.vendor_terms_for(ecosystem, package, version)
        if vendor is not None:
            return vendor.verdict
        return OPEN_SOURCE if free_by_policy or self.is_allowed(licence) else OUTSIDE


def expression_allowed(expression: str, allowed: dict[str, str] | frozenset[str]) -> bool:
    """Whether an SPDX expression is open source by the allow-list: one OR branch whose AND terms are all allowed
    ("X WITH exception" counts as X). With parentheses mixing AND and OR, every licence named must be allowed (the
    conservative reading; no package needs more)."""
    text = expression.strip()
    if not text:
        return False
    if "(" in text and " AND " in text and " OR " in text:
        return all(
            term in allowed
            for term in re.findall(r"[A-Za-z0-9.+-]+", _drop_exceptions(text))
            if term not in ("AND", "OR")
        )
    text = _drop_exceptions(text.replace("(", " ").replace(")", " "))
    return any(all(t.strip() in allowed for t in branch.split(" AND ")) for branch in text.split(" OR "))


def _drop_exceptions(text: str) -> str:
    return re.sub(r"\s+WITH\s+[A-Za-z0-9.+-]+", "", text)


def _evidence(where: str, raw: Any) -> Evidence:
    if not isinstance(raw, dict) or set(raw) != {"licence", "evidence"}:
        raise ConfigError(f"licences.toml {where} must have exactly `licence` and `evidence`", "add the evidence")
    return Evidence(raw["licence"], raw["evidence"])


def _vendor_terms(package: str, raw: Any) -> VendorTerms:
    where = f"licences.toml [vendor_terms.{package!r}]"
    if not isinstance(raw, dict) or set(raw) - _VENDOR_KEYS or not _VENDOR_KEYS - {"versions"} <= set(raw):
        raise ConfigError(f"{where} has keys {sorted(raw)}", f"the keys are {', '.join(sorted(_VENDOR_KEYS))}")
    if raw["ecosystem"] not in ECOSYSTEMS:
        raise ConfigError(f"{where}: ecosystem {raw['ecosystem']!r}", f"one of {', '.join(ECOSYSTEMS)}")
    return VendorTerms(
        package, raw["ecosystem"], raw["reason"], raw["figures"], raw["verdict"], tuple(raw.get("versions", ()))
    )


def _runtime_packs(raw: Any) -> RuntimePacks:
    if not isinstance(raw, dict) or set(raw) != _PACK_KEYS:
        raise ConfigError(
            f"licences.toml [sources.nuget_runtime_packs] has keys {sorted(raw)}",
            f"the keys are {', '.join(sorted(_PACK_KEYS))}",
        )
    by_tfm = {tfm: tuple(rids) for tfm, rids in raw["rids_by_tfm"].items()}
    return RuntimePacks(raw["lab"], tuple(raw["packs"]), tuple(raw["aot_packs"]), tuple(raw["rids"]), by_tfm)


@functools.cache
def load_licence_policy(path: pathlib.Path = LICENCES_FILE) -> LicencePolicy:
    """licences.toml, checked: its schema version, known keys, evidence on every stated licence."""
    try:
        data = tomllib.loads(path.read_text())
    except (OSError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path} cannot be read: {e}", "restore it from the repository") from e
    if data.get("schema_version") != SCHEMA_VERSION or set(data) - _TOP_KEYS:
        raise ConfigError(
            f"{path}: schema_version {data.get('schema_version')!r}, keys {sorted(data)}",
            f"this harness reads schema_version {SCHEMA_VERSION} with keys {', '.join(sorted(_TOP_KEYS))}",
        )
    sources = data.get("sources", {})
    if set(sources) != _SOURCE_KEYS:
        raise ConfigError(
            f"{path} [sources] has keys {sorted(sources)}", f"the keys are {', '.join(sorted(_SOURCE_KEYS))}"
        )
    nuget, npm, debian = data.get("nuget", {}), data.get("npm", {}), data.get("debian", {})
    node = npm.get("node_builds", {})
    return LicencePolicy(
        sources=LicenceSources(
            lab_lock_files(NUGET_LOCK_FILE),
            sources["nuget_local_feed"],
            _runtime_packs(sources["nuget_runtime_packs"]),
            lab_lock_files(NPM_LOCK_FILE),
            tuple(sources["debian_bases"]),
            tuple(sources["debian_dockerfiles"]),
        ),
        allowed=dict(data.get("allowed", {})),
        vendor_terms=tuple(_vendor_terms(name, raw) for name, raw in data.get("vendor_terms", {}).items()),
        nuget_licence_urls={
            url: _evidence(f"[nuget.licence_urls.{url!r}]", raw) for url, raw in nuget.get("licence_urls", {}).items()
        },
        nuget_overrides={
            (package, version): _evidence(f"[nuget.overrides.{package!r}.{version!r}]", raw)
            for package, versions in nuget.get("overrides", {}).items()
            for version, raw in versions.items()
        },
        node_builds=frozenset(node.get("packages", ())),
        node_build_note=node.get("note", ""),
        debian_overrides={
            name: _evidence(f"[debian.overrides.{name!r}]", raw) for name, raw in debian.get("overrides", {}).items()
        },
    )
