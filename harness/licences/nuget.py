"""NuGet packages and their licences: the (id, version) pairs of the .NET lab's lock files, and what each package's
nuspec declares, read from the NuGet package folders of this host or the lab's folder feed (a .nupkg is a zip).
"""

from __future__ import annotations

import json
import os
import pathlib
import xml.etree.ElementTree as ET
import zipfile
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from harness.config.lab.labs import load_lab
from harness.licences.policy import LicencePolicy, RuntimePacks
from harness.licences.table import Declared
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

#: NuGet's own rendering of a licence expression (nuget.org writes it as the licenseUrl of every expression).
NUGET_LICENCE_URL = "https://licenses.nuget.org/"
RESTORE_HINT = "run `dotnet restore` for the project of that lock file (its nuspec lands in ~/.nuget/packages)"


@dataclass(frozen=True)
class NuspecLicence:
    """A nuspec's licence elements: `<license type="expression|file">` and `<licenseUrl>` (None when absent)."""

    kind: str | None  # "expression", "file" or None
    value: str | None
    url: str | None


def nuget_packages(lock_files: Iterable[pathlib.Path]) -> list[tuple[str, str]]:
    """Every (id, resolved version) of these packages.lock.json files, over all target frameworks, Direct and
    Transitive; the lab's own projects (type Project) are not packages."""
    pairs: set[tuple[str, str]] = set()
    for path in lock_files:
        try:
            frameworks = json.loads(path.read_text())["dependencies"]
        except (OSError, ValueError, KeyError) as e:
            raise ConfigError(f"{path} is not a NuGet lock file: {e}", "restore it from the repository") from e
        for packages in frameworks.values():
            pairs |= {(i, p["resolved"]) for i, p in packages.items() if p.get("type") != "Project"}
    return sorted(pairs, key=lambda pair: (pair[0].lower(), pair[1]))


def runtime_packs(spec: RuntimePacks, root: pathlib.Path = REPO_ROOT) -> list[tuple[str, str]]:
    """(id, version) of the packs the lab's runtimes (its lab.toml [runtimes]) bundle."""
    lab = load_lab(root / spec.lab)
    pairs = {
        pack
        for runtime in lab.runtimes.values()
        for pack in spec.for_runtime(
            runtime.version, runtime.values.get("tfm", ""), runtime.values.get("aot") == "true"
        )
    }
    return sorted(pairs, key=lambda pair: (pair[0].lower(), pair[1]))


def package_folders(environ: Mapping[str, str] = os.environ) -> list[pathlib.Path]:
    """Where restored packages are, as NuGet looks: $NUGET_PACKAGES (else ~/.nuget/packages), then the folders of
    $NUGET_FALLBACK_PACKAGES (';'-separated; also ':' here)."""
    main = environ.get("NUGET_PACKAGES") or str(pathlib.Path.home() / ".nuget" / "packages")
    fallback = environ.get("NUGET_FALLBACK_PACKAGES", "").replace(";", os.pathsep).split(os.pathsep)
    return [pathlib.Path(p) for p in [main, *fallback] if p]


def find_nuspec(
    package: str, version: str, folders: Iterable[pathlib.Path], feed: pathlib.Path
) -> tuple[bytes, str] | None:
    """The nuspec of one package and where it was read: a package folder's <id>/<version>/<id>.nuspec (lower case, as
    NuGet lays them out), else the .nupkg of the folder feed. None when neither has it."""
    low = package.lower()
    for folder in folders:
        path = folder / low / version.lower() / f"{low}.nuspec"
        if path.is_file():
            return path.read_bytes(), str(path)
    for nupkg in feed.glob("*.nupkg") if feed.is_dir() else ():
        if nupkg.name.lower() == f"{low}.{version.lower()}.nupkg":
            with zipfile.ZipFile(nupkg) as archive:
                name = next((n for n in archive.namelist() if n.lower() == f"{low}.nuspec"), None)
                if name is not None:
                    return archive.read(name), f"{nupkg}!{name}"
    return None


def parse_nuspec_licence(data: bytes) -> NuspecLicence:
    """The licence elements of a nuspec's <metadata>, whatever its schema namespace; ET.ParseError when it is not
    XML."""
    metadata = next((e for e in ET.fromstring(data) if e.tag.rsplit("}", 1)[-1] == "metadata"), None)
    found = {e.tag.rsplit("}", 1)[-1]: e for e in metadata} if metadata is not None else {}
    licence, url = found.get("license"), found.get("licenseUrl")
    return NuspecLicence(
        licence.get("type") if licence is not None else None,
        (licence.text or "").strip() if licence is not None else None,
        (url.text or "").strip() if url is not None else None,
    )


def declare_from_nuspec(package: str, version: str, nuspec: NuspecLicence, policy: LicencePolicy) -> Declared:
    """What a parsed nuspec declares: its expression, else the licence its licenseUrl names (NuGet's rendering of an
    expression, or a URL licences.toml maps), else "see <file or url>" (not open source until evidence is added)."""
    if nuspec.kind == "expression" and nuspec.value:
        return Declared("nuget", package, version, nuspec.value, "nuspec license expression")
    if nuspec.kind == "file":
        return Declared("nuget", package, version, f"see {nuspec.value} in the package", "nuspec license file")
    if nuspec.url and nuspec.url.startswith(NUGET_LICENCE_URL):
        return Declared("nuget", package, version, nuspec.url.removeprefix(NUGET_LICENCE_URL), "nuspec licenseUrl")
    if nuspec.url and nuspec.url in policy.nuget_licence_urls:
        mapped = policy.nuget_licence_urls[nuspec.url]
        return Declared("nuget", package, version, mapped.licence, "nuspec licenseUrl, mapped by licences.toml")
    if nuspec.url:
        return Declared("nuget", package, version, f"see {nuspec.url}", "nuspec licenseUrl")
    return Declared("nuget", package, version, "none declared", "nuspec")


def declare_nuget(
    package: str, version: str, policy: LicencePolicy, folders: Iterable[pathlib.Path], feed: pathlib.Path
) -> Declared:
    """One package's licence: licences.toml's override for that version, else its nuspec's declaration; a missing or
    broken nuspec is a Declared that was not read (why, in its licence), never an exception."""
    override = policy.nuget_overrides.get((package, version))
    if override is not None:
        return Declared("nuget", package, version, override.licence, "licences.toml override", override.evidence)
    found = find_nuspec(package, version, folders, feed)
    if found is None:
        return Declared("nuget", package, version, "nuspec not found", "", read=False)
    data, where = found
    try:
        return declare_from_nuspec(package, version, parse_nuspec_licence(data), policy)
    except ET.ParseError as e:
        return Declared("nuget", package, version, f"nuspec unreadable ({where}: {e})", "", read=False)
