import pathlib

import pytest

from harness.config.experiment.experiments import load_experiments, select_experiments
from harness.model.errors import ConfigError, UnknownNameError


def test_the_shipped_experiments_load_with_all_their_claims():
    experiments = load_experiments()
    assert set(experiments) >= {"000", "001"}
    assert len(experiments["000"].claims) == 29  # 21 from the tables, 8 across runtimes
    assert len(experiments["001"].claims) == 7
    assert experiments["001"].baseline_of("file-stj-default") == "file-newtonsoft"


def test_an_unknown_experiment_suggests_the_nearest_id():
    with pytest.raises(UnknownNameError, match="unknown experiment '01'") as error:
        select_experiments(load_experiments(), ["01"])
    assert "000" in error.value.hint


def _write(tmp_path: pathlib.Path, text: str) -> pathlib.Path:
    source = (pathlib.Path(__file__).parents[3] / "experiments" / "001-stj-vs-newtonsoft-employees.toml").read_text()
    (tmp_path / "900-test.toml").write_text(source.replace('id = "001"', 'id = "900"') + text)
    return tmp_path


def test_a_claim_on_an_unknown_benchmark_lists_the_valid_ones(tmp_path):
    directory = _write(
        tmp_path,
        '\n[[claims]]\nscenario = "s"\npublished_variant = "X"\npublished_baseline = "Y"\n'
        'benchmark = "no-such-benchmark"\nbaseline = "file-newtonsoft"\nhardware = "H001"\n',
    )
    with pytest.raises(UnknownNameError, match="no-such-benchmark") as error:
        load_experiments(directory)
    assert "file-newtonsoft" in error.value.hint


def test_a_claim_needs_exactly_one_kind_of_baseline(tmp_path):
    directory = _write(
        tmp_path,
        '\n[[claims]]\nscenario = "s"\npublished_variant = "X"\npublished_baseline = "Y"\n'
        'benchmark = "file-stj-default"\nhardware = "H001"\n',
    )
    with pytest.raises(ConfigError, match="exactly one of baseline / derived_baseline"):
        load_experiments(directory)


def test_groups_declare_the_operation_they_share_across_labs_and_a_group_stays_in_one_lab(tmp_path):
    cross = load_experiments()["006"]
    shared = {g.id: g.shared_operation for g in cross.groups.values()}
    assert shared["parse-twitter"] == shared["dotnet-parse-twitter"] == "untyped-parse"
    assert shared["stringify-canada"] == shared["dotnet-stringify-canada"] == "untyped-stringify"
    labs = {b.lab for b in cross.benchmarks.values()}
    assert labs == {"reference-node", "dotnet", "cpp"}
    assert shared["cpp-parse-twitter"] == "untyped-parse" and shared["cpp-stringify-canada"] == "untyped-stringify"
    for bench in cross.benchmarks.values():
        assert cross.benchmarks[cross.baseline_of(bench.id)].lab == bench.lab
    directory = _write(
        tmp_path,
        '\n[[benchmarks]]\nid = "node-in-a-dotnet-group"\ngroup = "file"\nlab = "reference-node"\n'
        'variant = "json-string"\ndataset = "employee-data"\n',
    )
    with pytest.raises(ConfigError, match="whose baseline runs in lab dotnet"):
        load_experiments(directory)
