"""The publisher's setup: what a write-up says about the machine, runtime, run settings, method and data its figures
were measured with (an experiment's `[hardware.<key>.setup]`). Each field is the write-up's own words, or "not stated"
where it says nothing: the report sets them beside this run's (analysis/compute/verdicts/setup_factors.py), one row per
factor, with whether this lab can change it on this host."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

NOT_STATED = "not stated"


@dataclass(frozen=True)
class PublishedSetup:
    """One published machine's setup, as the write-up states it (every field "not stated" by default)."""

    os: str = NOT_STATED
    cpu: str = NOT_STATED
    hybrid: str = NOT_STATED  # performance and efficiency cores: "yes: 6 P-cores + 8 E-cores", "no"
    cores: str = NOT_STATED
    runtime_build: str = NOT_STATED  # the exact runtime build and JIT line as printed
    gc: str = NOT_STATED
    tiered_compilation: str = NOT_STATED
    method: str = NOT_STATED  # the benchmark engine and its job: launch, warm-up and iteration settings
    processes: str = NOT_STATED  # whether each benchmark ran in a process of its own
    pinned: str = NOT_STATED
    data: str = NOT_STATED  # the data: generator, its version, seed, sizes, or the fixed file
    power: str = NOT_STATED
    sources: str = ""  # where in the write-up (or its code) these facts were read

    def stated(self, name: str) -> bool:
        """Whether the write-up says anything about this field."""
        return getattr(self, name) != NOT_STATED


#: The setup fields an experiment file may give, in the report's order ("sources" is provenance, not a factor).
SETUP_FIELDS = tuple(f.name for f in dataclasses.fields(PublishedSetup))


def _gc_value(words: str) -> str:
    return "server" if "server" in words.lower() else "workstation"


def _tiered_value(words: str) -> str:
    return "off" if any(word in words.lower() for word in ("off", "disabled", "false")) else "on"


#: The setup fields that are run settings of the same name (lab.toml [run_settings]), and how a write-up's words
#: read as one of the setting's values.
SETTING_FIELDS = {"gc": _gc_value, "tiered_compilation": _tiered_value}


def publisher_run_settings(setup: PublishedSetup) -> dict[str, str]:
    """The run settings the publisher ran with, as lab setting values ({"gc": "server", "tiered_compilation": "off"}),
    for the fields the write-up states."""
    return {name: read(getattr(setup, name)) for name, read in SETTING_FIELDS.items() if setup.stated(name)}
