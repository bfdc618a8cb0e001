import pathlib

import pytest

from harness.config.lab.labs import load_lab, load_labs
from harness.model.errors import ConfigError, UnknownNameError

LAB_TOML = """
schema_version = 1
name = "multi"
language = "C#"
raw_format = "bdn"
build = ["tool", "publish", "-f", "{tfm}", "-p:V={version}", "-o", "build/{runtime}"]
build_output = "build/{runtime}"
command = ["build/{runtime}/App"]
default_runtime = "9.0.1"

[environment]
A = "1"

[runtimes."8.0.0"]
version = "8.0.0"
tfm = "net8.0"
environment = { B = "2" }

[runtimes."9.0.1"]
version = "9.0.1"
tfm = "net9.0"
"""


def _lab(tmp_path: pathlib.Path, text: str = LAB_TOML):
    (tmp_path / "lab.toml").write_text(text)
    return load_lab(tmp_path)


def test_a_runtime_build_fills_in_its_templates_and_environment(tmp_path):
    build = _lab(tmp_path).for_runtime("8.0.0")
    assert build.build == ("tool", "publish", "-f", "net8.0", "-p:V=8.0.0", "-o", "build/8.0.0")
    assert build.command == ("build/8.0.0/App",)
    assert build.build_output == "build/8.0.0"
    assert build.environment == {"A": "1", "B": "2"}
    assert build.target == "multi@8.0.0"
    assert build.expected_version() == "8.0.0"


def test_no_runtime_named_means_the_labs_default(tmp_path):
    lab = _lab(tmp_path)
    assert lab.runtime_names == ("8.0.0", "9.0.1")
    assert lab.for_runtime().runtime == "9.0.1"


def test_an_unknown_runtime_lists_the_labs_runtimes(tmp_path):
    with pytest.raises(UnknownNameError, match="unknown runtime '8.0'") as error:
        _lab(tmp_path).for_runtime("8.0")
    assert "8.0.0" in str(error.value) + error.value.hint


def test_a_template_naming_an_undefined_key_says_which(tmp_path):
    lab = _lab(tmp_path, LAB_TOML.replace('"-f", "{tfm}"', '"-f", "{framework}"'))
    with pytest.raises(ConfigError, match="framework"):
        lab.for_runtime("8.0.0")


def test_a_lab_without_runtimes_has_one_default_build(tmp_path):
    text = "\n".join(line for line in LAB_TOML.splitlines() if not line.startswith(("default_runtime",)))
    text = text.split("[runtimes.")[0]
    lab = _lab(tmp_path, text)
    assert lab.runtime_names == ("default",)
    build = lab.for_runtime()
    assert build.target == "multi" and build.expected_version() is None
    with pytest.raises(UnknownNameError):
        lab.for_runtime("8.0.0")


def test_the_dotnet_lab_declares_the_write_ups_runtimes():
    lab = load_labs()["dotnet"]
    assert {"8.0.0", "10.0.12"} <= set(lab.runtime_names)
    assert lab.default_runtime in lab.runtime_names
    for name in lab.runtime_names:
        build = lab.for_runtime(name)
        assert f"-p:LabRuntimeVersion={build.expected_version()}" in build.build


def test_a_build_reporting_another_runtime_version_is_refused(tmp_path):
    from harness.model.errors import HarnessError
    from harness.session.processes.probe import check_runtime_version

    build = _lab(tmp_path).for_runtime("8.0.0")
    check_runtime_version(build, {"runtime": ".NET", "runtime_version": "8.0.0"})
    with pytest.raises(HarnessError, match="should run on .NET 8.0.0 but its process reports 8.0.31"):
        check_runtime_version(build, {"runtime": ".NET", "runtime_version": "8.0.31"})


def test_a_build_reporting_another_runtime_name_than_it_declares_is_refused(tmp_path):
    from harness.model.errors import HarnessError
    from harness.session.processes.probe import check_runtime_version

    build = load_labs()["cpp"].for_runtime("gcc-12.2.0-native")
    assert build.reported_runtime() == "GCC (-march=native)"
    check_runtime_version(build, {"runtime": "GCC (-march=native)", "runtime_version": "12.2.0"})
    with pytest.raises(HarnessError, match="declares that it reports runtime 'GCC \\(-march=native\\)'"):
        check_runtime_version(build, {"runtime": "GCC", "runtime_version": "12.2.0"})


def test_every_shipped_runtime_declares_the_runtime_name_its_isa_switches_are_keyed_by():
    from harness.config.isa import load_isa_table

    keys = {key.rsplit(".", 1)[0] for key in load_isa_table().switches}
    for lab in load_labs().values():
        for name in lab.runtimes:
            reports = lab.for_runtime(name).reported_runtime()
            assert reports in keys, f"lab {lab.name} runtime {name} reports {reports!r}; switch tables: {keys}"


def test_unshared_variants_is_a_list_of_names_or_an_error_with_the_form(tmp_path):
    text = LAB_TOML.replace(
        'raw_format = "bdn"', 'raw_format = "bdn"\nunshared_variants = ["x-per-call", "*+per_call=true*"]'
    )
    assert _lab(tmp_path, text).unshared_variants == ("x-per-call", "*+per_call=true*")
    for bad in ('"x-per-call"', "[1]", '[""]'):
        with pytest.raises(ConfigError, match="unshared_variants must be a list of names") as error:
            _lab(tmp_path, LAB_TOML.replace('raw_format = "bdn"', f'raw_format = "bdn"\nunshared_variants = {bad}'))
        assert "unshared_variants = [" in error.value.hint
