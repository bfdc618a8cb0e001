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
    """One named preset."""

    name: str
    description: str
    experiments: tuple[str, ...]
    benchmarks: tuple[str, ...] | None
    isa_levels: tuple[str, ...]
    job: JobSettings


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
            )
        except (KeyError, TypeError, ValueError) as e:
            raise ConfigError(f"profile '{name}' in {path} is malformed: {e}", "compare it with the 'default' profile") from e
    return profiles


def find_profile(profiles: dict[str, Profile], name: str) -> Profile:
    """A profile by name, or UnknownNameError listing valid names."""
    if name not in profiles:
        raise UnknownNameError("profile", name, profiles, "in experiments/profiles.toml")
    return profiles[name]
