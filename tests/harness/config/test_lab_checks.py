"""Each lab's own tests and lint (lab.toml [checks]): read from its folder, refused when misspelt."""

import pathlib

import pytest

from harness.config.lab.lab_checks import parse_checks
from harness.config.lab.labs import load_labs
from harness.model.defaults import LABS_DIR
from harness.model.errors import ConfigError

PATH = pathlib.Path("lab/x/lab.toml")


def test_the_three_labs_declare_their_own_tests_and_the_dotnet_lab_its_lint():
    checks = {lab.name: lab.checks for lab in load_labs(LABS_DIR, accepted=frozenset()).values()}
    assert set(checks) == {"cpp", "dotnet", "reference-node"}
    assert all(lab.test for lab in checks.values())
    assert [c.fix for c in checks["dotnet"].lint] == [
        "dotnet format lab/dotnet/src/JsonLab.csproj",
        "dotnet format lab/dotnet/tests/JsonLab.Tests.csproj",
    ]
    assert checks["cpp"].build_before_test and not checks["dotnet"].build_before_test
    assert checks["dotnet"].directory == LABS_DIR / "dotnet"


def test_lines_and_tables_are_both_checks_and_a_lab_without_checks_has_none():
    checks = parse_checks(
        {"name": "x", "checks": {"test": ["make test"], "lint": [{"run": "fmt -c", "fix": "fmt"}]}}, PATH
    )
    assert [c.run for c in checks.of("test")] == ["make test"]
    assert [(c.run, c.fix) for c in checks.of("lint")] == [("fmt -c", "fmt")]
    assert parse_checks({"name": "x"}, PATH).of("test") == ()


@pytest.mark.parametrize(
    "table, words",
    [
        ({"tests": ["make test"]}, "[checks] has no key tests"),
        ({"test": "make test"}, "test is not a list"),
        ({"lint": [{"run": "x", "fixes": "y"}]}, "lint[0]"),
        ({"test": [""]}, "test[0]"),
        ({"build_before_test": "yes"}, "build_before_test"),
    ],
)
def test_a_misspelt_or_mistyped_check_names_the_file_and_the_key(table, words):
    with pytest.raises(ConfigError) as error:
        parse_checks({"name": "x", "checks": table}, PATH)
    assert str(PATH) in str(error.value) and words in str(error.value)
