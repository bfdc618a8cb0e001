"""The licence table: one row per package the labs use, with its licence, where that is stated and a verdict, as
docs/licences.csv (the machine-readable copy the check and the tests read) and docs/licences.md (its human view).

Formatters return text; harness/commands/licences.py is the one writer.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Iterable
from dataclasses import astuple, dataclass, fields

from harness.licences.policy import ECOSYSTEMS, LicencePolicy
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

CSV_FILE = REPO_ROOT / "docs" / "licences.csv"
MARKDOWN_FILE = REPO_ROOT / "docs" / "licences.md"
ECOSYSTEM_NAMES = {"nuget": "NuGet", "npm": "npm", "debian": "Debian"}


@dataclass(frozen=True)
class Declared:
    """What one package declares about its licence, as a reader found it."""

    ecosystem: str
    package: str
    version: str
    licence: str  # as stated (an SPDX expression, Debian licence names), or why it is not known ("nuspec not found")
    where_stated: str
    note: str = ""
    read: bool = True  # False: not readable on this host; the committed table's row stands in when it has one
    free_by_policy: bool = False  # its source is free software by policy (Debian main)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.ecosystem, self.package, self.version)


@dataclass(frozen=True)
class LicenceRow:
    """One row of the table (the CSV columns, in order)."""

    ecosystem: str
    package: str
    version: str
    licence: str
    where_stated: str
    verdict: str
    note: str = ""

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.ecosystem, self.package, self.version)


COLUMNS = tuple(f.name for f in fields(LicenceRow))


def row_order(key: tuple[str, str, str]) -> tuple[int, str, str, str]:
    """NuGet, npm, Debian; then package names case-blind, then versions."""
    ecosystem, package, version = key
    return (ECOSYSTEMS.index(ecosystem), package.lower(), package, version)


def render_csv(rows: Iterable[LicenceRow]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    writer.writerows(astuple(row) for row in sorted(rows, key=lambda r: row_order(r.key)))
    return out.getvalue()


def parse_csv(text: str, where: str = "docs/licences.csv") -> list[LicenceRow]:
    """The rows of a licence CSV; a wrong header or row is refused with what to run."""
    reader = csv.reader(io.StringIO(text))
    header = next(reader, None)
    if header is None or tuple(header) != COLUMNS:
        raise ConfigError(f"{where} has columns {header}, not {list(COLUMNS)}", "run `python3 -m harness licences`")
    rows = []
    for number, cells in enumerate(reader, start=2):
        if len(cells) != len(COLUMNS) or cells[0] not in ECOSYSTEMS:
            raise ConfigError(f"{where} line {number} is malformed: {cells}", "run `python3 -m harness licences`")
        rows.append(LicenceRow(*cells))
    return rows


def _text(text: str) -> str:
    """Data text in Markdown: angle brackets (nuspec elements) shown, not taken for HTML."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _cell(text: str) -> str:
    return _text(text).replace("|", "\\|").replace("\n", " ")


def _header(rows: list[LicenceRow], policy: LicencePolicy) -> list[str]:
    counts = Counter(row.ecosystem for row in rows)
    vendor = [
        f"- **{v.package}** ({ECOSYSTEM_NAMES[v.ecosystem]}{', ' + ', '.join(v.versions) if v.versions else ''}): "
        f"{_text(v.reason)}. Figures: {_text(v.figures)}."
        for v in policy.vendor_terms
    ]
    return [
        "# Licences of the packages the labs use",
        "",
        "Every package the labs build with or run on, with its licence, where that licence is stated, and a verdict: "
        "the NuGet packages of every lock file a lab folder holds (packages*.lock.json under lab/<lab>/: every "
        "target framework, Direct and Transitive, the Native AOT lock file, the library-version builds' src/locks/ and "
        "the tests') and the runtime packs the .NET lab's self-contained builds bundle (lab/dotnet/lab.toml "
        "`[runtimes]`), the npm packages of every package-lock.json a lab folder holds, and the Debian packages "
        "the lab images install (the `include` lists of the local bases, containers/local-bases.toml and each lab's "
        "lab/<lab>/local-bases.toml, and the lab Dockerfiles' "
        "`apt-get install`s). This file is generated: `python3 -m harness licences` rewrites it and "
        "[licences.csv](licences.csv), the machine-readable copy the check reads, from the lock files and "
        "harness/licences/licences.toml; `python3 -m harness licences --check` (and "
        "tests/harness/config/test_licences.py) fails when the table no longer matches the lock files or a licence "
        "is outside the allow-list.",
        "",
        f"The allow-list (harness/licences/licences.toml `[allowed]`): {', '.join(policy.allowed)}, the OSI-approved "
        "licences these packages use and nothing more. A NuGet package's licence is read from its nuspec "
        '(`<license type="expression">`, else a `<licenseUrl>` that names one licence; anything else needs evidence '
        "in licences.toml), an npm package's from package-lock.json, a Debian package's from "
        "`/usr/share/doc/<package>/copyright` (the `License:` names of its machine-readable form). Debian packages "
        "come "
        "from Debian main, free software by Debian policy, and pass on that ground; their licence names are recorded "
        "as found.",
        "",
        "Packages under their vendor's terms, not open source for the lab's purpose:",
        "",
        *vendor,
        "",
        f"{counts['nuget']} NuGet, {counts['npm']} npm and {counts['debian']} Debian packages.",
        "",
    ]


def render_markdown(rows: Iterable[LicenceRow], policy: LicencePolicy) -> str:
    """docs/licences.md: the header paragraphs, then the table."""
    ordered = sorted(rows, key=lambda r: row_order(r.key))
    lines = _header(ordered, policy)
    lines += [
        "| Ecosystem | Package | Version | Licence | Where stated | Verdict | Note |",
        "|---|---|---|---|---|---|---|",
    ]
    for row in ordered:
        cells = (ECOSYSTEM_NAMES[row.ecosystem], row.package, row.version, row.licence, row.where_stated)
        lines.append("| " + " | ".join(_cell(c) for c in (*cells, row.verdict, row.note)) + " |")
    return "\n".join(lines) + "\n"


def table_differences(rows: Iterable[LicenceRow], committed: Iterable[LicenceRow]) -> list[str]:
    """How the committed table differs from the rows the lock files give now: packages only in one of them, and rows
    whose licence, source or verdict changed. Empty when they agree."""
    now, before = {r.key: r for r in rows}, {r.key: r for r in committed}
    out = [f"{' '.join(k)}: in the lock files, not in the committed table" for k in sorted(now.keys() - before.keys())]
    out += [f"{' '.join(k)}: in the committed table, in no lock file" for k in sorted(before.keys() - now.keys())]
    for key in sorted(now.keys() & before.keys(), key=row_order):
        old, new = before[key], now[key]
        changed = [
            f"{c} {getattr(old, c)!r} -> {getattr(new, c)!r}" for c in COLUMNS[3:] if getattr(old, c) != getattr(new, c)
        ]
        if changed:
            out.append(f"{' '.join(key)}: {'; '.join(changed)}")
    return out
