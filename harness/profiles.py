"""Run profiles (experiments/profiles.toml): named presets of experiments, benchmarks, ISA levels and job."""

from __future__ import annotations

import pathlib
import tomllib
from dataclasses import dataclass

from harness.defaults import PROFILES_FILE
from harness.errors import ConfigError, UnknownNameError
from harness.records import JobSettings


@dataclass(frozen=True)
class Profile:
    """One named preset. `rounds`: how many times each cell is run, interleaved with the other cells
    of its ISA level, so slow drifts of the host's speed spread over every cell instead of biasing a few."""

    name: str
    description: str
    experiments: tuple[str, ...]
    benchmarks: tuple[str, ...] | None
    isa_levels: tuple[str, ...]
    job: JobSettings
    rounds: int = 1


def load_profiles(path: pathlib.Path = PROFILES_FILE) -> dict[str, Profile]:
    """All profiles by name."""
    data = tomllib.loads(path.read_text())
    profiles = {}
    for name, spec in data["profiles"].items():
        try:
            profiles[name] = Profile(
                name=name,
                description=spec["description"],
                experiments=tuple(spec["experiments"]),
                benchmarks=tuple(spec["benchmarks"]) if "benchmarks" in spec else None,
                isa_levels=tuple(spec["isa_levels"]),
                job=JobSettings(**spec.get("job", {})),
                rounds=int(spec.get("rounds", 1)),
            )
            if profiles[name].rounds < 1:
                raise ValueError(f"rounds must be at least 1, got {profiles[name].rounds}")
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"profile '{name}' in {path} is malformed: {e}", "compare it with the 'default' profile") from e
    return profiles


def find_profile(profiles: dict[str, Profile], name: str) -> Profile:
    """A profile by name, or UnknownNameError listing valid names."""
    if name not in profiles:
        raise UnknownNameError("profile", name, profiles, "in experiments/profiles.toml")
    return profiles[name]
