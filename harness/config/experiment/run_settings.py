"""Run settings: runtime knobs an experiment (or one of its groups) asks for, such as tiered compilation or Server GC.

Each lab declares the settings it knows in its lab.toml ([run_settings.<name>.values.<value>]): the environment that
produces a value and what the measured process must read back (`expect`, keys of the `settings` object its `env` verb
and env.json report). A setting is part of its cells' identity (their cell id names it), applies to the processes of
those cells only, and a cell whose process reads back something else fails, as a cell whose ISA level did not take
effect does. A value with no `expect` is one the runtime cannot report: its rows say "not read back".
"""

from __future__ import annotations

import pathlib
from dataclasses import dataclass
from typing import Any

from harness.model.errors import ConfigError, UnknownNameError
from harness.model.places import Settings, SettingsReadback

#: What a row says of a setting its runtime cannot report.
NOT_READ_BACK = "not read back"


@dataclass(frozen=True)
class SettingValue:
    """One value of a setting: the environment that produces it and the readback that proves it."""

    environment: dict[str, str]
    expect: SettingsReadback
    min_cpus: int | None = None  # the CPUs a process needs for the value to take effect (Server GC: 2); None: not said

    def needs_cpus(self, value: str) -> int:
        """The CPUs a process needs for this value: min_cpus, or for a lab.toml kept before min_cpus existed (a run's
        labs/) the rule it stated in prose, Server GC 2, else 1."""
        return self.min_cpus if self.min_cpus is not None else (2 if value == "server" else 1)


@dataclass(frozen=True)
class RunSetting:
    """One setting a lab knows, with its values."""

    name: str
    description: str
    values: dict[str, SettingValue]
    default: str = ""  # the value a process has when the setting is not asked for ("": not declared)


def parse_run_settings(data: dict, where: str) -> dict[str, RunSetting]:
    """A lab.toml's [run_settings] tables."""
    settings: dict[str, RunSetting] = {}
    for name, spec in data.items():
        values = spec.get("values") or {}
        if not values:
            raise ConfigError(
                f"{where}: [run_settings.{name}] declares no values", "add [run_settings.<name>.values.<value>]"
            )
        default = str(spec.get("default", ""))
        if default and default not in values:
            raise UnknownNameError(f"default of run setting {name}", default, values, f"in {where}")
        settings[name] = RunSetting(
            name,
            str(spec.get("description", "")),
            {
                value: SettingValue(
                    {k: str(v) for k, v in (body.get("environment") or {}).items()},
                    dict(body.get("expect") or {}),
                    _min_cpus(body.get("min_cpus"), f"{where}: [run_settings.{name}] {value}"),
                )
                for value, body in values.items()
            },
            default,
        )
    return settings


def _min_cpus(value: object, where: str) -> int | None:
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ConfigError(f"{where}: min_cpus must be a whole number, 1 or more, not {value!r}", "e.g. min_cpus = 2")
    return value


def normalized(settings: dict[str, str]) -> Settings:
    """Settings as a cell holds them: sorted (name, value) pairs."""
    return tuple(sorted((str(k), str(v)) for k, v in settings.items()))


def value_of(known: dict[str, RunSetting], lab: str, name: str, value: str, where: str = "") -> SettingValue:
    """One setting's value, or the error naming what the lab knows."""
    where = f" {where}" if where else ""
    if not known:
        raise ConfigError(
            f"run setting {name}={value}{where}: lab {lab} declares no run settings",
            f"remove it, or declare it in lab/{lab}/lab.toml [run_settings] with its environment and readback",
        )
    if name not in known:
        raise UnknownNameError("run setting", name, known, f"of lab {lab} (lab/{lab}/lab.toml [run_settings]){where}")
    setting = known[name]
    if value not in setting.values:
        raise UnknownNameError(
            f"value of run setting {name}", value, setting.values, f"of lab {lab} (lab/{lab}/lab.toml){where}"
        )
    return setting.values[value]


def environment_of(known: dict[str, RunSetting], lab: str, settings: Settings) -> dict[str, str]:
    """The environment that produces these settings in a process of this lab."""
    env: dict[str, str] = {}
    for name, value in settings:
        env.update(value_of(known, lab, name, value).environment)
    return env


def unmet_settings(known: dict[str, RunSetting], lab: str, settings: Settings, readback: SettingsReadback) -> list[str]:
    """Every setting whose readback contradicts it: 'tiered_compilation=off (tiered_compilation is true, expected
    false)'; a key the process did not report at all counts as contradicting (the lab must report what it declares)."""
    unmet = []
    for name, value in settings:
        for key, want in value_of(known, lab, name, value).expect.items():
            got = readback.get(key, "not reported")
            if got != want:
                unmet.append(f"{name}={value} ({key} is {_show(got)}, expected {_show(want)})")
    return unmet


def readback_state(known: dict[str, RunSetting], lab: str, settings: Settings) -> str:
    """'read back' when every setting's value declares what the process must report, else NOT_READ_BACK."""
    if all(value_of(known, lab, name, value).expect for name, value in settings):
        return "read back"
    return NOT_READ_BACK


def _show(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def parse_lab_run_settings(data: dict, path: pathlib.Path) -> dict[str, RunSetting]:
    """A lab.toml's [run_settings]; a setting may not set a variable an ISA switch sets (the level's would be lost)."""
    settings = parse_run_settings(data.get("run_settings", {}), str(path))
    switch_names = {
        name
        for by_major in data.get("isa_switches", {}).values()
        for levels in by_major.values()
        for switches in levels.values()
        for name in switches
    }
    for setting in settings.values():
        for value_name, value in setting.values.items():
            clash = sorted(switch_names & set(value.environment))
            if clash:
                raise ConfigError(
                    f"{path}: run setting {setting.name}={value_name} sets {', '.join(clash)}, "
                    "which an ISA switch sets",
                    "a run setting must leave the ISA switches' variables to the ISA levels",
                )
    return settings
