"""Lab descriptors: lab/<name>/lab.toml says how to build and invoke a lab that speaks the lab contract.

Adding a lab is adding a folder with a lab.toml; nothing here names a particular lab.
"""

from __future__ import annotations

import pathlib
import shutil
import tomllib
from dataclasses import dataclass

from harness.defaults import LABS_DIR
from harness.errors import ConfigError, MissingToolError, UnknownNameError


@dataclass(frozen=True)
class LabSpec:
    """One lab: where it lives, how to build it, how to call its verbs."""

    name: str
    directory: pathlib.Path
    language: str
    raw_format: str
    requires: tuple[str, ...]
    build: tuple[str, ...]
    command: tuple[str, ...]
    environment: dict[str, str]

    def check_requirements(self) -> None:
        """Raises MissingToolError naming the first required program that is not on PATH."""
        for program in self.requires:
            if shutil.which(program) is None:
                raise MissingToolError(
                    f"lab '{self.name}' needs '{program}', which is not on PATH",
                    f"install it (for dotnet: the .NET 10 SDK) or run another lab; see README prerequisites",
                )


def load_lab(directory: pathlib.Path) -> LabSpec:
    """Reads one lab.toml."""
    path = directory / "lab.toml"
    try:
        data = tomllib.loads(path.read_text())
        return LabSpec(
            name=data["name"],
            directory=directory,
            language=data["language"],
            raw_format=data["raw_format"],
            requires=tuple(data.get("requires", [])),
            build=tuple(data.get("build", [])),
            command=tuple(data["command"]),
            environment={k: str(v) for k, v in data.get("environment", {}).items()},
        )
    except (KeyError, tomllib.TOMLDecodeError) as e:
        raise ConfigError(f"{path} is malformed: {e}", "compare it with lab/dotnet/lab.toml") from e


def load_labs(labs_dir: pathlib.Path = LABS_DIR) -> dict[str, LabSpec]:
    """All labs under lab/, by name."""
    labs = [load_lab(d) for d in sorted(labs_dir.iterdir()) if (d / "lab.toml").is_file()]
    return {lab.name: lab for lab in labs}


def find_lab(labs: dict[str, LabSpec], name: str) -> LabSpec:
    """A lab by name, or UnknownNameError listing the valid ones."""
    if name not in labs:
        raise UnknownNameError("lab", name, labs)
    return labs[name]
