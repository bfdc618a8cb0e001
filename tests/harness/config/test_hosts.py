"""hosts.toml: hosts as data, the local host by default, mistakes named."""

import pytest

from harness.config.hosts import LOCAL_HOST, HostSpec, load_hosts, select_hosts
from harness.model.errors import ConfigError, UnknownNameError


def test_the_shipped_file_has_the_local_host_and_the_second_engine_standing_in_for_a_remote_box():
    hosts = load_hosts()
    assert hosts[LOCAL_HOST] == HostSpec(LOCAL_HOST, note="this machine")
    assert hosts["second"].context == "jsonlab-second"
    assert hosts["second"].docker_args() == ("--context", "jsonlab-second")
    assert hosts[LOCAL_HOST].docker_args() == ()


def test_without_a_file_there_is_the_local_host(tmp_path):
    assert list(load_hosts(tmp_path / "hosts.toml")) == [LOCAL_HOST]


def test_another_hosts_file_is_named_by_the_environment_and_a_host_may_be_told_its_platform(tmp_path, monkeypatch):
    path = tmp_path / "boxes.toml"
    path.write_text('[hosts.arm]\ncontext = "jsonlab-second"\nplatform = "linux/arm64"\n')
    monkeypatch.setenv("JSONLAB_HOSTS_FILE", str(path))
    assert load_hosts()["arm"] == HostSpec("arm", "jsonlab-second", platform="linux/arm64")


def test_no_host_named_means_the_local_one_and_an_unknown_one_is_refused_with_the_known_ones(tmp_path):
    hosts = load_hosts()
    assert [h.name for h in select_hosts(hosts, None)] == [LOCAL_HOST]
    assert [h.name for h in select_hosts(hosts, ["second", "local", "second"])] == ["second", "local"]
    with pytest.raises(UnknownNameError, match="third"):
        select_hosts(hosts, ["third"])


@pytest.mark.parametrize(
    "entry, message",
    [
        ('[hosts.Big_Box]\ncontext = "x"', "lower-case"),
        ('[hosts."alpha\\n"]\ncontext = "x"', r"host name 'alpha\\n' is not lower-case"),  # `$` took a last newline
        ('[hosts.box]\ncontext = "x"\ncpus = "1"', "unknown keys"),
        ("[hosts.box", "not valid TOML"),
        ('[hosts.box]\ncontext = "x"\nplatform = "linux/riscv64"', "is not one the labs build"),
    ],
)
def test_a_wrong_entry_is_refused_before_anything_runs(tmp_path, entry, message):
    path = tmp_path / "hosts.toml"
    path.write_text(entry)
    with pytest.raises(ConfigError, match=message):
        load_hosts(path)
