"""A twin build (lab.toml `twin_of`): a second build of one runtime, for the A/A across two builds."""

import pytest

from harness.bdn.hardware import stand_ins
from harness.config.lab.lab_builds import parse_runtimes
from harness.config.lab.labs import load_labs
from harness.model.errors import UnknownNameError


def test_the_dotnet_lab_has_a_twin_of_its_newest_runtime_that_never_stands_in_for_a_published_one():
    dotnet = load_labs()["dotnet"]
    twin = dotnet.runtimes["10.0.12-twin"]
    assert twin.twin_of == "10.0.12" and twin.version == dotnet.runtimes["10.0.12"].version and not twin.sweep
    assert stand_ins(".NET 10.0.3", None, dotnet) == ["10.0.12"]


def test_a_twin_of_a_runtime_the_lab_does_not_have_is_refused_with_the_names_it_has():
    with pytest.raises(UnknownNameError, match="twin_of of runtime b"):
        parse_runtimes({"a": {"version": "1.0"}, "b": {"version": "1.0", "twin_of": "c"}}, {})
