"""Library versions as a build dimension: a runtime name with library versions is derived from the lab's runtime, with
its own lock file and build arguments; a package the lab does not let vary, or a version the registry does not serve,
is refused before anything is built; the process must report the versions asked for."""

import dataclasses
import functools
import http.server
import json
import threading

import pytest

from harness.builds.library_locks import lock_path, prepare_library_builds, refuse_unserved
from harness.config.lab.labs import load_labs
from harness.config.lab.library_builds import build_name, derived_lock_file, safe_name, split_build_name
from harness.config.lab.library_switches import with_runtimes
from harness.containers.images import LabImage
from harness.licences.package_registry import nuget_versions
from harness.model.errors import BuildError, ConfigError, HarnessError, UnknownNameError
from harness.session.processes.probe import check_library_versions

DERIVED = "8.0.0+Newtonsoft.Json=13.0.3"


@pytest.fixture(scope="module")
def dotnet():
    return load_labs()["dotnet"]


def test_a_build_name_splits_into_runtime_and_library_versions_in_package_order():
    assert split_build_name("8.0.0") == ("8.0.0", ())
    base, libraries = split_build_name("9.0.20+Newtonsoft.Json=12.0.3+BenchmarkDotNet=0.14.0")
    assert (base, libraries) == ("9.0.20", (("BenchmarkDotNet", "0.14.0"), ("Newtonsoft.Json", "12.0.3")))
    assert build_name(base, libraries) == "9.0.20+BenchmarkDotNet=0.14.0+Newtonsoft.Json=12.0.3"
    assert safe_name(DERIVED) == "8.0.0_Newtonsoft.Json-13.0.3"
    assert derived_lock_file("packages.aot.lock.json", libraries) == (
        "locks/packages.aot.BenchmarkDotNet-0.14.0.Newtonsoft.Json-12.0.3.lock.json"
    )


@pytest.mark.parametrize(
    "name", ["8.0.0+Newtonsoft.Json", "8.0.0+=1.0", "8.0.0+A=1+A=2", "8.0.0+A=../x", "8.0.0+Newtonsoft.Json=13.0.3\n"]
)
def test_a_malformed_library_part_is_refused(name):
    with pytest.raises(ConfigError):
        split_build_name(name)


def test_the_derived_build_has_its_own_lock_file_build_arguments_and_image(dotnet):
    build = dotnet.for_runtime(DERIVED)
    assert build.runtime == DERIVED and build.expected_version() == "8.0.0"
    assert build.runtimes[DERIVED].libraries == (("Newtonsoft.Json", "13.0.3"),)
    assert "-p:NuGetLockFilePath=locks/packages.Newtonsoft.Json-13.0.3.lock.json" in build.build
    assert build.build[-1] == "-p:LabNewtonsoftJsonVersion=13.0.3"
    assert build.container.build_args["LIBRARY_ARGUMENTS"] == "-p:LabNewtonsoftJsonVersion=13.0.3"
    assert "src/locks/packages.Newtonsoft.Json-13.0.3.lock.json" in build.container.offline_lock_files
    assert build.library_versions.lock[-1] == "-p:LabNewtonsoftJsonVersion=13.0.3"
    assert lock_path(build) == dotnet.directory / "src/locks/packages.Newtonsoft.Json-13.0.3.lock.json"
    image = LabImage(build)
    assert image.tag == "jsonlab/dotnet:8.0.0_Newtonsoft.Json-13.0.3"
    assert all(c.isalnum() or c in "-_" for c in image.service)
    # the lab's own build asks for nothing
    own = dotnet.for_runtime("8.0.0")
    assert own.container.build_args["LIBRARY_ARGUMENTS"] == "" and own.build[-1].startswith("build/")


def test_a_package_the_lab_does_not_let_vary_and_an_unknown_runtime_are_refused(dotnet):
    with pytest.raises(UnknownNameError, match="unknown library 'Jil' for lab dotnet") as e:
        dotnet.for_runtime("8.0.0+Jil=2.17.0")
    assert e.value.hint == "valid: BenchmarkDotNet, Bogus, Newtonsoft.Json, System.Text.Json"
    with pytest.raises(UnknownNameError, match="unknown runtime '7.0.0'"):
        dotnet.for_runtime("7.0.0+Newtonsoft.Json=13.0.3")


def test_asked_runtimes_join_the_labs_they_derive_from_only(dotnet):
    labs = with_runtimes(load_labs(), ["claims", DERIVED])
    assert DERIVED in labs["dotnet"].runtime_names and DERIVED not in labs["reference-node"].runtime_names
    assert DERIVED not in labs["dotnet"].sweep_runtime_names  # by name only


def test_a_version_the_registry_does_not_serve_is_refused_listing_those_it_does(dotnet):
    build = dotnet.for_runtime("8.0.0+Newtonsoft.Json=12.0.2")
    with pytest.raises(BuildError, match="asks for Newtonsoft.Json 12.0.2, which the registry does not serve") as e:
        refuse_unserved(build, lambda package: ["12.0.1", "12.0.3", "13.0.3"])
    assert e.value.hint == "versions served: 12.0.1, 12.0.3, 13.0.3"
    with pytest.raises(BuildError) as e:
        refuse_unserved(build, lambda package: [])
    assert e.value.hint == "the registry serves no package named Newtonsoft.Json"


def _in(tmp_path, build, lock_command):
    """The build in a lab folder under tmp_path, whose lock command is `lock_command` (a shell line)."""
    return dataclasses.replace(
        build,
        directory=tmp_path,
        library_versions=dataclasses.replace(build.library_versions, lock=("sh", "-c", lock_command)),
    )


def test_every_version_is_checked_before_any_lock_file_is_written(dotnet, tmp_path):
    served = {"Newtonsoft.Json": ["13.0.3"], "Bogus": ["35.6.5"]}
    good = _in(tmp_path, dotnet.for_runtime(DERIVED), "touch written")
    bad = _in(tmp_path, dotnet.for_runtime("8.0.0+Bogus=35.5.0"), "touch written")
    with pytest.raises(BuildError, match="Bogus 35.5.0"):
        prepare_library_builds([good, bad], tmp_path, lambda line: None, lambda lab, package: served[package])
    assert not (tmp_path / "written").exists()


def test_a_missing_lock_file_is_written_by_the_lab_s_lock_command_and_a_present_one_is_used(dotnet, tmp_path):
    build = _in(
        tmp_path, dotnet.for_runtime(DERIVED), "echo '{}' > src/locks/packages.Newtonsoft.Json-13.0.3.lock.json"
    )
    said = []
    written = prepare_library_builds([build], tmp_path, said.append, lambda lab, package: ["13.0.3"])
    assert written == [lock_path(build)] and lock_path(build).read_text() == "{}\n"
    assert any("commit it" in line for line in said)
    asked = []
    assert prepare_library_builds([build], tmp_path, said.append, lambda lab, package: asked.append(package)) == []
    assert asked == []  # a committed lock file needs no registry


def test_a_lock_command_that_writes_nothing_is_an_error(dotnet, tmp_path):
    build = _in(tmp_path, dotnet.for_runtime(DERIVED), "true")
    with pytest.raises(BuildError, match="wrote no"):
        prepare_library_builds([build], tmp_path, lambda line: None, lambda lab, package: ["13.0.3"])


def test_the_process_must_report_the_versions_asked_for(dotnet):
    build = dotnet.for_runtime(DERIVED)
    check_library_versions(build, {"libraries": {"Newtonsoft.Json": "13.0.3"}})
    with pytest.raises(HarnessError, match="should load Newtonsoft.Json 13.0.3 but its process reports 13.0.4"):
        check_library_versions(build, {"libraries": {"Newtonsoft.Json": "13.0.4"}})
    with pytest.raises(HarnessError, match="reports no version of it"):
        check_library_versions(build, {"libraries": "broken"})
    check_library_versions(dotnet.for_runtime("8.0.0"), {})  # the lab's own build asks for nothing


@pytest.fixture
def feed(tmp_path):
    """A NuGet feed on loopback: a service index and one package's version list."""
    (tmp_path / "flat" / "newtonsoft.json").mkdir(parents=True)
    (tmp_path / "flat" / "newtonsoft.json" / "index.json").write_text(json.dumps({"versions": ["12.0.3", "13.0.3"]}))
    (tmp_path / "flat" / "broken").mkdir()
    (tmp_path / "flat" / "broken" / "index.json").write_text("<html>")
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(tmp_path))
    handler.log_message = lambda *args: None  # type: ignore[attr-defined]
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    base = f"http://127.0.0.1:{server.server_address[1]}"
    resources = [{"@id": f"{base}/flat/", "@type": "PackageBaseAddress/3.0.0"}]
    (tmp_path / "index.json").write_text(json.dumps({"version": "3.0.0", "resources": resources}))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"{base}/index.json"
    server.shutdown()


def test_the_nuget_feed_is_asked_through_its_service_index(feed):
    assert nuget_versions(feed, "Newtonsoft.Json") == ["12.0.3", "13.0.3"]
    assert nuget_versions(feed, "NoSuchPackage") == []
    with pytest.raises(BuildError, match="not JSON"):
        nuget_versions(feed, "broken")
    with pytest.raises(BuildError, match="cannot ask the registry"):
        nuget_versions("http://127.0.0.1:9/index.json", "Newtonsoft.Json")


def test_an_experiment_naming_a_build_with_library_versions_plans_its_cells_there(tmp_path):
    from harness.planning.run_plan import RunOptions, resolve_plan
    from tests.conftest import FIXTURES

    base = (FIXTURES / "broken-experiments" / "000-valid-base.toml").read_text()
    claim = 'hardware = "H900"\n'
    text = base.replace(claim, claim + f'at = {{ runtime = "{DERIVED}" }}\nreference_at = {{ runtime = "8.0.0" }}\n', 1)
    (tmp_path / "experiments").mkdir()
    (tmp_path / "experiments" / "900-library.toml").write_text(text)
    plan = resolve_plan(
        RunOptions(
            profile="default",
            experiments=("900",),
            experiments_dir=tmp_path / "experiments",
            build=False,
            pin_harness=False,
            calibrate=False,
            check_tools=False,
        )
    )
    assert {cell.runtime for cell in plan.cells} == {"8.0.0", DERIVED}
    assert f"dotnet@{DERIVED}" in plan.labs
    assert plan.labs[f"dotnet@{DERIVED}"].build[-1] == "-p:LabNewtonsoftJsonVersion=13.0.3"


def test_every_switch_of_the_explain_profile_has_a_committed_lock_file():
    """`just explain` needs no registry and no host restore for the switches it plans by default."""
    from harness.planning.run_plan import RunOptions, resolve_plan

    plan = resolve_plan(
        RunOptions(profile="explain", build=False, pin_harness=False, calibrate=False, check_tools=False)
    )
    switched = [lab for lab in plan.labs.values() if lab.runtimes[lab.runtime].libraries]
    assert {"8.0.0+Newtonsoft.Json=13.0.1", "8.0.0+Newtonsoft.Json=13.0.3"} <= {lab.runtime for lab in switched}
    for lab in switched:
        path = lock_path(lab)
        assert path is not None and path.is_file(), f"commit {path} (python3 -m harness build --runtime {lab.runtime})"


def test_a_switched_build_with_accepted_vendor_terms_has_its_own_lock_file_too():
    lab = dataclasses.replace(load_labs(accepted=frozenset({"ServiceStack.Text"}))["dotnet"])
    build = lab.for_runtime(DERIVED)
    assert "-p:NuGetLockFilePath=locks/packages.servicestack.Newtonsoft.Json-13.0.3.lock.json" in build.build
    assert "-p:LabServiceStack=true" in build.build


def test_a_switched_build_gets_a_compose_service_of_its_own_for_bake(dotnet):
    from harness.containers.image_build import bake_overrides, switched_services

    images = [LabImage(dotnet.for_runtime("10.0.12")), LabImage(dotnet.for_runtime(DERIVED))]
    services = switched_services(images)["services"]
    assert list(services) == ["dotnet-8-0-0_Newtonsoft-Json-13-0-3"]  # compose.yaml has the lab's own runtimes
    build = services["dotnet-8-0-0_Newtonsoft-Json-13-0-3"]["build"]
    assert build == {
        "context": str(dotnet.directory),
        "dockerfile": "Dockerfile",
        "network": "${BUILD_NETWORK:-default}",
    }
    target = bake_overrides(images, "local")["target"]["dotnet-8-0-0_Newtonsoft-Json-13-0-3"]
    assert target["args"]["LIBRARY_ARGUMENTS"] == "-p:LabNewtonsoftJsonVersion=13.0.3" and "network" not in target


def test_a_service_index_pointing_outside_http_is_refused(tmp_path):
    index = tmp_path / "index.json"
    index.write_text(json.dumps({"resources": [{"@id": "file:///etc/", "@type": "PackageBaseAddress/3.0.0"}]}))
    with pytest.raises(BuildError, match="http"):
        nuget_versions(index.as_uri(), "passwd")


def test_an_in_box_library_is_asked_for_newer_than_its_runtime_and_refused_older(dotnet):
    newer = dotnet.for_runtime("8.0.0+System.Text.Json=10.0.12")  # .NET 10's library on the .NET 8 runtime
    assert newer.build_libraries == (("System.Text.Json", "10.0.12"),)
    assert "-p:LabSystemTextJsonVersion=10.0.12" in newer.build
    assert (dotnet.directory / newer.libraries.lock_file).is_file()  # committed: the check in docs/lab-contract.md
    with pytest.raises(ConfigError, match="older than the copy runtime 10.0.12 ships in-box") as e:
        dotnet.for_runtime("10.0.12+System.Text.Json=9.0.20")
    assert (
        e.value.hint
        == "ask for System.Text.Json 10.0.12 or newer on it, or for 9.0.20 on an older runtime of lab dotnet"
    )
