"""Packages under their vendor's terms (harness/config/lab/vendor_terms.py): left out of the default build, their cells
unavailable with the opt-in, built in with their own lock files once lab.local.toml accepts them, and the figures
measured with them saying so; a broken lab.local.toml is an error with the fix."""

import json
import pathlib

import pytest

from analysis.compute.verdicts.verdict_row import Verdict
from analysis.compute.verdicts.verdicts import with_terms_note
from harness.config.experiment.experiments import load_experiments
from harness.config.lab.labs import load_labs
from harness.config.lab.vendor_terms import MAX_LOCAL_SETTINGS_BYTES, accepted_terms
from harness.model.errors import ConfigError
from harness.planning.run_plan import RunOptions, resolve_plan

REPO = pathlib.Path(__file__).resolve().parents[3]
SERVICESTACK = "ServiceStack.Text"
ACCEPT = 'accept_vendor_terms = ["ServiceStack.Text"]\n'


def _locked(name: str) -> set[str]:
    data = json.loads((REPO / "lab" / "dotnet" / "src" / name).read_text())
    return {package for target in data["dependencies"].values() for package in target}


def test_the_default_build_leaves_servicestack_out_and_an_accepted_one_builds_it_from_its_own_lock_files():
    dotnet = load_labs()["dotnet"]
    assert dotnet.accepted_terms == frozenset() and SERVICESTACK in dotnet.vendor_packages
    for runtime, lock in (("10.0.12", "packages.lock.json"), ("10.0.12-aot", "packages.aot.lock.json")):
        build = dotnet.for_runtime(runtime)
        assert f"-p:NuGetLockFilePath={lock}" in build.build and "-p:LabServiceStack=false" in build.build
        assert build.container.build_args["SERVICESTACK"] == "false" and SERVICESTACK not in _locked(lock)
        accepted = load_labs(accepted=frozenset({SERVICESTACK}))["dotnet"].for_runtime(runtime)
        vendor_lock = lock.replace(".lock.json", ".servicestack.lock.json")
        assert f"-p:NuGetLockFilePath={vendor_lock}" in accepted.build and "-p:LabServiceStack=true" in accepted.build
        assert accepted.container.build_args["LOCK_FILE"] == vendor_lock and SERVICESTACK in _locked(vendor_lock)
        assert f"src/{vendor_lock}" in accepted.container.offline_lock_files
        assert f"src/{vendor_lock}" not in build.container.offline_lock_files


def test_a_variant_of_an_unaccepted_package_is_unavailable_in_the_plan_with_the_opt_in(tmp_path, monkeypatch):
    options = RunOptions(profile="default", experiments=("004",), results_dir=tmp_path, check_tools=False)
    cells = [c for c in resolve_plan(options).cells if c.variant.startswith("servicestack")]
    assert cells and all(
        c.unavailable.startswith(f"not measured: {SERVICESTACK} is under its vendor's terms") for c in cells
    )
    assert all(ACCEPT.strip() in c.unavailable and " (" not in c.unavailable for c in cells)
    others = [c for c in resolve_plan(options).cells if not c.variant.startswith("servicestack")]
    assert others and not any(c.unavailable for c in others)
    settings = tmp_path / "lab.local.toml"
    settings.write_text(ACCEPT)
    monkeypatch.setenv("JSONLAB_LOCAL_SETTINGS", str(settings))
    accepted = [c for c in resolve_plan(options).cells if c.variant.startswith("servicestack")]
    assert len(accepted) == len(cells) and not any(c.unavailable for c in accepted)


@pytest.mark.parametrize(
    "text, message",
    [
        ("accept_vendor_terms = 'ServiceStack.Text'\n", "must be a list"),
        ("accept = []\n", "unknown setting 'accept'"),
        ("accept_vendor_terms = [\n", "not valid TOML"),
        (b'accept_vendor_terms = ["\xff"]\n', "not UTF-8"),
        ("# " + "x" * MAX_LOCAL_SETTINGS_BYTES + "\n", "more than a data file may be"),
    ],
    ids=["a string", "unknown key", "not TOML", "not UTF-8", "too big"],
)
def test_a_broken_local_settings_file_is_an_error_with_the_fix(tmp_path, text, message):
    path = tmp_path / "lab.local.toml"
    path.write_bytes(text if isinstance(text, bytes) else text.encode())
    with pytest.raises(ConfigError, match=message) as raised:
        accepted_terms(path)
    assert "accept_vendor_terms" in raised.value.hint


def test_accepting_a_package_no_lab_uses_is_refused_naming_those_that_exist(tmp_path):
    assert accepted_terms(tmp_path / "absent.toml") == frozenset()
    with pytest.raises(ConfigError, match="'Newtonsoft.Json', which no lab uses") as raised:
        load_labs(accepted=frozenset({"Newtonsoft.Json"}))
    assert SERVICESTACK in raised.value.hint


def _verdict(benchmark: str, reference: str, verdict: str, note: str = "") -> Verdict:
    fields = {name: None for name in Verdict.__dataclass_fields__}
    fields.update(benchmark=benchmark, reference=reference, verdict=verdict, note=note, primary=True)
    return Verdict(**fields)


def test_a_figure_measured_with_an_accepted_package_says_so_and_an_unavailable_one_keeps_its_reason():
    experiment = load_experiments()["004"]
    labs = load_labs(accepted=frozenset())
    bench = next(b for b in experiment.benchmarks.values() if b.variant.startswith("servicestack"))
    plain = next(b for b in experiment.benchmarks.values() if b.variant.startswith("newtonsoft"))
    noted = with_terms_note(_verdict(bench.id, plain.id, "reproduced", "a note"), experiment, labs)
    assert (
        noted.note
        == f"a note; {SERVICESTACK} is under its vendor's terms, not an open-source licence; accepted in lab.local.toml"
    )
    unavailable = _verdict(bench.id, plain.id, "unavailable: not measured: ...")
    assert with_terms_note(unavailable, experiment, labs) == unavailable
    other = _verdict(plain.id, plain.id, "reproduced")
    assert with_terms_note(other, experiment, labs) == other
