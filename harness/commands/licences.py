"""`python3 -m harness licences [--check]`: the licence table of every package the labs use, written from the lock
files and harness/licences/licences.toml (docs/licences.csv and docs/licences.md), or checked against them.

A licence this host cannot read (a nuspec not restored here, a Debian package not installed) keeps the committed
table's row, and the command says which; a package the committed table lacks then fails.
"""

from __future__ import annotations

import argparse
import dataclasses
import os
import pathlib
import sys
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from harness.licences.debian import debian_packages, declare_debian, host_suite
from harness.licences.npm import declare_npm
from harness.licences.nuget import RESTORE_HINT, declare_nuget, nuget_packages, package_folders, runtime_packs
from harness.licences.policy import NOT_READ, OPEN_SOURCE, OUTSIDE, LicencePolicy, load_licence_policy
from harness.licences.table import (
    CSV_FILE,
    MARKDOWN_FILE,
    Declared,
    LicenceRow,
    parse_csv,
    render_csv,
    render_markdown,
    table_differences,
)
from harness.model.defaults import REPO_ROOT

RUNTIME_PACK_NOTE = "runtime pack a self-contained publish bundles (lab/dotnet/lab.toml [runtimes]), in no lock file"
REGENERATE = "run `python3 -m harness licences` and commit docs/licences.csv and docs/licences.md"
#: What to do about a licence that could not be read, per ecosystem.
UNREAD_FIX = {
    "nuget": f"{RESTORE_HINT}, or add the licence with its evidence to licences.toml [nuget.overrides]; then "
    "run `python3 -m harness licences`",
    "npm": "run `npm install` in lab/reference-node so package-lock.json records it; then run `python3 -m harness "
    "licences`",
    "debian": "generate the table on a Debian host that has the package installed (`apt-get install <package>`), or "
    "add the licence with its evidence to licences.toml [debian.overrides]",
}
OUTSIDE_FIX = (
    "if the licence is open source, add its SPDX id to licences.toml [allowed] (a file or URL: the evidence under "
    "[nuget.overrides] or [nuget.licence_urls]); if not, list the package under [vendor_terms] with its reason"
)


@dataclass(frozen=True)
class Problem:
    """One thing the check fails on, and what to do."""

    what: str
    fix: str


def declare_all(
    policy: LicencePolicy, root: pathlib.Path = REPO_ROOT, environ: Mapping[str, str] = os.environ
) -> list[Declared]:
    """What every package of the lock files, bases and Dockerfiles declares, as read on this host."""
    sources = policy.sources
    folders, feed = package_folders(environ), root / sources.nuget_local_feed
    locked = nuget_packages(sources.paths(sources.nuget_lock_files, root))
    nuget = [declare_nuget(package, version, policy, folders, feed) for package, version in locked]
    packs = [pair for pair in runtime_packs(sources.nuget_runtime_packs, root) if pair not in locked]
    nuget += [
        dataclasses.replace(declare_nuget(*pair, policy, folders, feed), note=RUNTIME_PACK_NOTE) for pair in packs
    ]
    npm = declare_npm(sources.paths(sources.npm_lock_files, root), policy)
    installed, suite = debian_packages(
        sources.paths(sources.debian_bases, root), sources.paths(sources.debian_dockerfiles, root), root
    )
    here = host_suite()
    return nuget + npm + [declare_debian(name, suite, files, policy, here) for name, files in installed.items()]


def settle(
    declared: list[Declared], committed: list[LicenceRow], policy: LicencePolicy
) -> tuple[list[LicenceRow], list[Declared]]:
    """The table's rows: each package as read here with its verdict, or, when it could not be read here, its committed
    row (verdict judged again). Also returns the packages whose committed row stood in."""
    before = {row.key: row for row in committed}
    rows: list[LicenceRow] = []
    stood_in: list[Declared] = []
    for d in declared:
        old = before.get(d.key)
        if d.read:
            verdict = policy.verdict(d.ecosystem, d.package, d.version, d.licence, d.free_by_policy)
            rows.append(LicenceRow(d.ecosystem, d.package, d.version, d.licence, d.where_stated, verdict, d.note))
        elif old is not None and old.verdict not in (NOT_READ, OUTSIDE):
            main = old.where_stated.endswith("; Debian main")
            verdict = policy.verdict(d.ecosystem, d.package, d.version, old.licence, main)
            rows.append(dataclasses.replace(old, verdict=verdict))
            stood_in.append(d)
        else:
            rows.append(LicenceRow(d.ecosystem, d.package, d.version, d.licence, d.where_stated, NOT_READ, d.note))
    return rows, stood_in


def row_problems(rows: list[LicenceRow]) -> list[Problem]:
    """Rows whose licence is unknown or outside the allow-list (vendor-terms packages are not problems)."""
    problems = []
    for row in rows:
        if row.verdict == NOT_READ:
            problems.append(
                Problem(f"{' '.join(row.key)}: licence not read ({row.licence})", UNREAD_FIX[row.ecosystem])
            )
        elif row.verdict == OUTSIDE:
            problems.append(Problem(f"{' '.join(row.key)}: {row.licence!r} is outside the allow-list", OUTSIDE_FIX))
    return problems


def committed_rows(path: pathlib.Path = CSV_FILE) -> list[LicenceRow]:
    """The committed table's rows; none when it does not exist yet."""
    return parse_csv(path.read_text(), str(path)) if path.is_file() else []


def unread_lines(unread: list[Declared]) -> list[str]:
    """One line per ecosystem and reason: the packages whose licence was not re-read here (the committed one stands)."""
    groups: dict[tuple[str, str], list[str]] = {}
    for d in unread:
        groups.setdefault((d.ecosystem, d.licence), []).append(f"{d.package} {d.version}")
    return [
        f"not re-read ({ecosystem}: {reason}; the committed licences stand), {len(packages)}: {', '.join(packages)}"
        for (ecosystem, reason), packages in groups.items()
    ]


def summary(rows: list[LicenceRow]) -> str:
    """One line: packages per ecosystem, and how many rows carry each verdict."""
    per = Counter(row.ecosystem for row in rows)
    verdicts = Counter(row.verdict for row in rows)
    return f"{per['nuget']} NuGet, {per['npm']} npm, {per['debian']} Debian packages; " + ", ".join(
        f"{verdicts[v]} {v}" for v in sorted(verdicts, key=lambda v: (v != OPEN_SOURCE, v))
    )


def licences_command(args: argparse.Namespace) -> int:
    policy = load_licence_policy()
    committed = committed_rows()
    rows, stood_in = settle(declare_all(policy), committed, policy)
    problems = row_problems(rows)
    markdown = render_markdown(rows, policy)
    if args.check:
        problems += [Problem(d, REGENERATE) for d in table_differences(rows, committed)]
        if not MARKDOWN_FILE.is_file() or MARKDOWN_FILE.read_text() != markdown:
            problems.append(Problem("docs/licences.md is not the rendering of the table", REGENERATE))
    else:
        CSV_FILE.write_text(render_csv(rows))
        MARKDOWN_FILE.write_text(markdown)
        print(f"wrote {CSV_FILE.relative_to(REPO_ROOT)} and {MARKDOWN_FILE.relative_to(REPO_ROOT)}", file=sys.stderr)
    for line in unread_lines(stood_in):
        print(line, file=sys.stderr)
    for problem in problems:
        print(f"{problem.what}\n  fix: {problem.fix}", file=sys.stderr)
    print(summary(rows), file=sys.stderr)
    return 1 if problems else 0
