"""Debian packages baked into the lab images and their licences: the `include` lists of the local bases and the
`apt-get install`s of the lab Dockerfiles; each package's licence names from this host's
/usr/share/doc/<package>/copyright when it is machine-readable (DEP-5), and its archive area (main passes by policy).
"""

from __future__ import annotations

import pathlib
import re
import subprocess
from collections.abc import Callable, Iterable

import tomllib

from harness.licences.policy import LicencePolicy
from harness.licences.table import Declared
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

DOC_DIR = pathlib.Path("/usr/share/doc")
#: How the lab Dockerfiles name the packages they install: `apt-get install [options] a b`, a `for p in a b; do dpkg
#: -s "$p"` loop that collects the missing ones, and `missing="$missing a"`. Shell variables are not package names.
_DOCKERFILE_PATTERNS = (
    re.compile(r"apt-get install((?:\s+-[-\w=]+)*)((?:\s+[$\w.+-]+)+)"),
    re.compile(r"for \w+ in ([^;]+); do\s*(?:\\\s*)?dpkg -s"),
    re.compile(r'missing="\$missing ([\w.+-]+)"'),
)


def dockerfile_packages(text: str) -> list[str]:
    """The Debian packages a Dockerfile installs, each once (by pattern, then by position)."""
    names: list[str] = []
    for pattern in _DOCKERFILE_PATTERNS:
        for match in pattern.finditer(text):
            names += [w for w in match.group(match.lastindex or 0).split() if not w.startswith(("$", "-"))]
    return list(dict.fromkeys(names))


def debian_packages(
    bases_files: Iterable[pathlib.Path], dockerfiles: Iterable[pathlib.Path], root: pathlib.Path = REPO_ROOT
) -> tuple[dict[str, list[str]], str]:
    """Each package (by name) with the files that install it, and the Debian suite(s) of the local bases (the files of
    their `include` lists: containers/local-bases.toml and each lab's own)."""
    found: dict[str, list[str]] = {}
    suites: set[str] = set()
    for bases_file in bases_files:
        try:
            bases = tomllib.loads(bases_file.read_text())["bases"]
        except (OSError, tomllib.TOMLDecodeError, KeyError) as e:
            raise ConfigError(f"{bases_file} cannot be read: {e}", "restore it from the repository") from e
        for base in bases.values():
            for name in base.get("include", ()):
                found.setdefault(name, []).append(str(bases_file.relative_to(root)))
        suites |= {base.get("suite", "") for base in bases.values()} - {""}
    for dockerfile in dockerfiles:
        for name in dockerfile_packages(dockerfile.read_text()):
            found.setdefault(name, []).append(str(dockerfile.relative_to(root)))
    return {name: list(dict.fromkeys(files)) for name, files in sorted(found.items())}, ", ".join(sorted(suites))


def copyright_licences(text: str) -> list[str] | None:
    """The distinct `License:` short names of a DEP-5 copyright file's Files paragraphs, in order of first use; None
    when the file is not machine-readable (no Format: header)."""
    paragraphs = re.split(r"\n[ \t]*\n", text.strip())
    if not paragraphs or not re.match(r"(?i)format:", paragraphs[0]):
        return None
    names: list[str] = []
    for paragraph in paragraphs:
        fields = dict(
            (m.group(1).lower(), m.group(2).strip()) for m in re.finditer(r"(?m)^([\w-]+):[ \t]*(.*)$", paragraph)
        )
        if "files" in fields and fields.get("license"):
            names.append(fields["license"])
    return list(dict.fromkeys(names))


def host_suite(os_release: pathlib.Path = pathlib.Path("/etc/os-release")) -> str | None:
    """This host's Debian suite (VERSION_CODENAME of a Debian os-release); None on any other system. Copyright files
    are read only on a host of the bases' suite: another release's packages may carry other licence lists."""
    try:
        text = os_release.read_text()
    except OSError:
        return None
    if not re.search(r"(?m)^ID=\"?debian\"?$", text):
        return None
    return next(iter(re.findall(r"(?m)^VERSION_CODENAME=\"?(\w+)\"?$", text)), None)


def host_section(package: str) -> str | None:
    """The package's Debian section on this host (dpkg for an installed one, else apt's lists); None when neither
    knows it (not a Debian host, or no apt lists)."""
    for command in (
        ["dpkg-query", "-W", "-f=${Section}", package],
        ["apt-cache", "show", "--no-all-versions", package],
    ):
        try:
            out = subprocess.run(command, capture_output=True, text=True, timeout=30).stdout
        except (OSError, subprocess.SubprocessError):
            continue
        section = out if command[0] == "dpkg-query" else next(iter(re.findall(r"(?m)^Section: (\S+)", out)), "")
        if section.strip():
            return section.strip()
    return None


def declare_debian(
    package: str,
    suite: str,
    installed_by: list[str],
    policy: LicencePolicy,
    this_suite: str | None,
    doc_dir: pathlib.Path = DOC_DIR,
    section_of: Callable[[str], str | None] = host_section,
) -> Declared:
    """One Debian package's licence names (licences.toml's override, else its DEP-5 copyright file here) and archive
    area: a section without an area prefix ("libs", not "non-free/libs") is main. Read only when this host's suite is
    the bases' (`this_suite`: host_suite())."""
    if this_suite not in suite.split(", "):
        why = f"the generating host is not Debian {suite}"
        return Declared("debian", package, suite, why, "", f"installed by {', '.join(installed_by)}", read=False)
    section = section_of(package)
    area = None if section is None else (section.split("/")[0] if "/" in section else "main")
    note = f"installed by {', '.join(installed_by)}"
    copyright_file = doc_dir / package / "copyright"
    override = policy.debian_overrides.get(package)
    if override is not None:
        licence, where, note = override.licence, "licences.toml override", f"{note}; {override.evidence}"
    elif copyright_file.is_file():
        names = copyright_licences(copyright_file.read_text(errors="replace"))
        licence = ", ".join(names) if names else f"see {copyright_file} (not machine-readable)"
        where = str(copyright_file)
    else:
        return Declared("debian", package, suite, "not installed on the generating host", "", note, read=False)
    if area is None:
        return Declared("debian", package, suite, licence, f"{where}; archive area unknown here", note, read=False)
    return Declared("debian", package, suite, licence, f"{where}; Debian {area}", note, free_by_policy=area == "main")
