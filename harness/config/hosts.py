"""Hosts as data: hosts.toml names the Docker engines a run may measure on, each reached through a Docker context
(`docker context ls`), with the CPUs the lab may pin there. The local engine is the default host.

Adding a box is adding an entry (docs/hosts.md says what the box must have); nothing here names a particular host.
"""

from __future__ import annotations

import os
import pathlib
from collections.abc import Iterable
from dataclasses import dataclass

from harness.config.data_files import TomlTable, TomlValue, read_toml
from harness.model.defaults import REPO_ROOT
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.folder.run_folder import HOST_NAME

#: Where the hosts are declared; JSONLAB_HOSTS_FILE names another file (tests, or a user's own list of boxes).
HOSTS_FILE_VARIABLE = "JSONLAB_HOSTS_FILE"
HOSTS_FILE = REPO_ROOT / "hosts.toml"
#: The host a run measures on when none is named: this machine's engine (or its processes, with the host backend).
LOCAL_HOST = "local"
_KEYS = {"context", "cpuset", "note", "platform"}
#: The platforms a host may be told to run (hosts.toml `platform`).
PLATFORMS = ("linux/amd64", "linux/arm64")


@dataclass(frozen=True)
class HostSpec:
    """One host: its name in results, the Docker context that reaches its engine (None: the CLI's current one, i.e.
    this machine), the CPUs the lab may pin there (taskset syntax; None: the harness picks, as on this machine), and a
    note for the report."""

    name: str
    context: str | None = None
    cpuset: str | None = None
    note: str = ""
    # The platform of the images it runs (None: its engine's own architecture). Another one than the engine's runs
    # under emulation: functional checks only (the stand-in for an arm64 box on an x64 machine).
    platform: str | None = None

    def docker_args(self) -> tuple[str, ...]:
        """What goes before a docker subcommand to reach this host's engine."""
        return ("--context", self.context) if self.context else ()


def load_hosts(path: pathlib.Path | None = None) -> dict[str, HostSpec]:
    """Every host of hosts.toml (or JSONLAB_HOSTS_FILE), by name; the local host exists even when the file does
    not."""
    path = path or pathlib.Path(os.environ.get(HOSTS_FILE_VARIABLE) or HOSTS_FILE)
    hosts = {LOCAL_HOST: HostSpec(LOCAL_HOST, note="this machine")}
    if not path.is_file():
        return hosts
    fix = "compare it with the hosts.toml of the repository"
    table: TomlValue = read_toml(path, fix).get("hosts", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{path}: hosts is {table!r}, not a table of [hosts.NAME] tables", fix)
    for name, entry in table.items():
        if not HOST_NAME.fullmatch(name):  # a whole-name match: `$` alone takes "alpha\n"
            raise ConfigError(
                f"{path}: host name {name!r} is not lower-case letters, digits and '-'",
                "rename it: it becomes part of row ids and folder names",
            )
        if not isinstance(entry, dict) or set(entry) - _KEYS:
            unknown = sorted(set(entry) - _KEYS) if isinstance(entry, dict) else entry
            raise ConfigError(
                f"{path}: [hosts.{name}] has unknown keys {unknown}", f"the keys are {', '.join(sorted(_KEYS))}"
            )
        if entry.get("platform") not in (None, *PLATFORMS):
            raise ConfigError(
                f"{path}: [hosts.{name}] platform {entry['platform']!r} is not one the labs build",
                f"one of {', '.join(PLATFORMS)}, or leave it out (the engine's own architecture)",
            )
        text = {key: _text(path, name, entry, key) for key in sorted(_KEYS)}
        hosts[name] = HostSpec(name, text["context"], text["cpuset"], text["note"] or "", text["platform"])
    return hosts


def _text(path: pathlib.Path, name: str, entry: TomlTable, key: str) -> str | None:
    """A host's `key`: a string, or None when left out; ConfigError naming the file, the host and the key else."""
    value = entry.get(key)
    if value is not None and not isinstance(value, str):
        raise ConfigError(
            f"{path}: [hosts.{name}] {key} is {value!r}, not a string", f'write it in quotes: {key} = "..."'
        )
    return value


def select_hosts(hosts: dict[str, HostSpec], names: Iterable[str] | None) -> list[HostSpec]:
    """The hosts named (`--host`, repeatable), in the order given; none named: the local host."""
    chosen = list(dict.fromkeys(names or [LOCAL_HOST]))
    for name in chosen:
        if name not in hosts:
            raise UnknownNameError("host", name, hosts, "in hosts.toml (docs/hosts.md: adding a host)")
    return [hosts[name] for name in chosen]
