"""Lab descriptors: lab/<name>/lab.toml says how to build and invoke a lab that speaks the lab contract.

Adding a lab is adding a folder with a lab.toml; nothing here names a particular lab.

A lab may be built for several runtimes (lab.toml's [runtimes] tables: one self-contained build per exact
runtime version). Its build, command and environment are then templates: `{runtime}` and every string
key of a runtime's table are filled in by `LabSpec.for_runtime`, which yields the descriptor of that one
build. A lab without [runtimes] has one build, called "default", whose version is whatever it reports.
"""

from __future__ import annotations

import dataclasses
import pathlib
from dataclasses import dataclass, field

from harness.config.data.declared_models import DeclaredModelsTarget, parse_declared_models_target
from harness.config.data_files import read_toml, toml_array, toml_table
from harness.config.experiment.run_settings import RunSetting, environment_of, parse_lab_run_settings
from harness.config.lab.lab_builds import ContainerSpec, LabRuntime, parse_container, parse_runtimes
from harness.config.lab.lab_checks import LabChecks, parse_checks
from harness.config.lab.lab_libraries import LibrariesSpec, parse_libraries
from harness.config.lab.library_builds import (
    SEPARATOR,
    LibraryVersions,
    build_name,
    derive_runtime,
    derived_lock_file,
    parse_library_versions,
    split_build_name,
)
from harness.config.lab.prerequisites import require_programs
from harness.config.lab.process_sharing import is_unshared, parse_unshared_variants
from harness.config.lab.variant_settings import base_of
from harness.config.lab.vendor_terms import VendorPackage, accepted_terms, check_accepted, parse_vendor_packages
from harness.model.cells import Cell
from harness.model.defaults import LABS_DIR
from harness.model.errors import ConfigError, UnknownNameError
from harness.model.folder.records import DEFAULT_RUNTIME, STEADY
from harness.model.places import Settings


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
    runtimes: dict[str, LabRuntime] = field(default_factory=dict)
    default_runtime: str = DEFAULT_RUNTIME
    build_inputs: tuple[str, ...] = ()
    build_ignore: tuple[str, ...] = ()
    build_output: str = ""
    runtime: str | None = None  # set on the descriptor of one build (for_runtime)
    # How to build the lab as an image (lab.toml [container]); None: host backend only.
    container: ContainerSpec | None = None
    # The raw format of the lab's `paired` verb (several cells of a group in one process, in alternating bursts), or
    # None when the lab has no such verb: the paired design then runs that lab's groups interleaved (designs.py).
    paired_format: str | None = None
    native_anchors: bool = False  # its `paired` verb can time the native anchors (job setting native_anchors)
    paired_handoff: bool = False  # its `paired` verb takes `--handoff 1` (the paired-pipelined design)
    # Variants whose groups never share a process with other groups (lab.toml; config/lab/process_sharing.py)
    unshared_variants: tuple[str, ...] = ()
    # True for the lab whose fastest verified cell is the report's cross-language "speed of light" (lab/cpp: simdjson).
    speed_of_light: bool = False
    # Runtime knobs an experiment may ask for (lab.toml [run_settings]; harness/config/experiment/run_settings.py).
    run_settings: dict[str, RunSetting] = field(default_factory=dict)
    # Packages under their vendor's terms (lab.toml [vendor_terms]; config/lab/vendor_terms.py), and those of them
    # the user accepted (lab.local.toml): only those are built in.
    vendor_packages: dict[str, VendorPackage] = field(default_factory=dict)
    accepted_terms: frozenset[str] = frozenset()
    # Where its images' library versions come from (lab.toml [libraries]; harness/config/lab/lab_libraries.py).
    libraries: LibrariesSpec | None = None
    # Its own tests and lint (lab.toml [checks]; harness/config/lab/lab_checks.py), run by `just test` and `just lint`.
    checks: LabChecks | None = None
    # The packages a build may ask for another version of (lab.toml [library_versions]; config/lab/library_builds.py).
    library_versions: LibraryVersions | None = None
    # Where it takes the declared models' code (lab.toml [declared_models]; harness/builds/lab_models.py).
    declared_models: DeclaredModelsTarget | None = None
    models_from: pathlib.Path | None = None  # the datasets folder its declared models come from (None: datasets/)

    def vendor_package_of(self, variant: str) -> VendorPackage | None:
        """The package under its vendor's terms this variant needs, if any."""
        return next((p for p in self.vendor_packages.values() if base_of(variant) in p.variants), None)

    def unavailable_variant(self, variant: str) -> str:
        """Why this variant is not built (its package's terms not accepted), or ''."""
        package = self.vendor_package_of(variant)
        return package.unavailable_reason() if package and package.name not in self.accepted_terms else ""

    @property
    def settings_variables(self) -> frozenset[str]:
        """Every variable any of this lab's run settings sets (no process of the host backend inherits them from the
        shell)."""
        return frozenset(
            name for s in self.run_settings.values() for value in s.values.values() for name in value.environment
        )

    def shares_process(self, cell: Cell) -> bool:
        """True when this lab measures several of a group's cells in one process (its `paired` verb): steady cells only;
        a single shot is one cell per fresh process by definition."""
        return self.paired_format is not None and cell.measure == STEADY

    def shares_with_other_groups(self, cell: Cell) -> bool:
        """True when this cell may also share its process with other groups' cells (config/lab/process_sharing.py)."""
        return self.shares_process(cell) and not is_unshared(cell.variant, self.unshared_variants)

    def settings_environment(self, settings: Settings) -> dict[str, str]:
        """The environment that produces these run settings in this lab's processes."""
        return environment_of(self.run_settings, self.name, settings)

    def check_requirements(self) -> None:
        """Raises MissingToolError naming every required program that is not on PATH, with what installs each."""
        require_programs(f"lab '{self.name}'", self.requires, self.directory.parent)

    @property
    def runtime_names(self) -> tuple[str, ...]:
        """The runtimes this lab can be built for, in lab.toml order."""
        return tuple(self.runtimes) or (DEFAULT_RUNTIME,)

    @property
    def build_libraries(self) -> tuple[tuple[str, str], ...]:
        """The library versions this build asks for (config/lab/library_builds.py); () for a build of the lab's own."""
        spec = self.runtimes.get(self.runtime or "")
        return spec.libraries if spec else ()

    @property
    def own_runtime_names(self) -> tuple[str, ...]:
        """The runtimes of lab.toml: runtime_names without the builds with library versions a run added."""
        return tuple(name for name, spec in self.runtimes.items() if not spec.libraries) or (DEFAULT_RUNTIME,)

    @property
    def sweep_runtime_names(self) -> tuple[str, ...]:
        """The runtimes a runtime sweep shows (all but those lab.toml marks `sweep = false`)."""
        return tuple(name for name, spec in self.runtimes.items() if spec.sweep) or self.runtime_names

    def runtimes_measuring(self, measure: str) -> tuple[str, ...]:
        """The runtimes whose build can measure `measure` (MEASURES), in lab.toml order."""
        return tuple(
            name for name in self.runtime_names if name not in self.runtimes or measure in self.runtimes[name].measures
        )

    @property
    def target(self) -> str:
        """'dotnet' or, for one runtime's build, 'dotnet@8.0.0': the key of a build in probes and logs."""
        return Cell.target_of(self.name, self.runtime or DEFAULT_RUNTIME)

    def expected_version(self) -> str | None:
        """The exact runtime version this build must report; None when the lab does not pin one."""
        spec = self.runtimes.get(self.runtime or "")
        return spec.version if spec else None

    def reported_runtime(self) -> str | None:
        """The runtime name this build's `env` reports (lab.toml `reports`); None when the lab does not declare it."""
        spec = self.runtimes.get(self.runtime or "")
        return spec.reports if spec else None

    def with_runtime(self, name: str) -> LabSpec:
        """This lab with build `name` among its runtimes: a runtime with library versions (8.0.0+Newtonsoft.Json=13.0.3,
        config/lab/library_builds.py) is derived from its runtime's entry; any other name leaves the lab as it is."""
        base, _ = split_build_name(name)
        if SEPARATOR not in name or base not in self.runtimes:
            return self
        derived = derive_runtime(self.name, self.library_versions, self.runtimes[base], name)
        return dataclasses.replace(self, runtimes={**self.runtimes, derived.name: derived})

    def for_runtime(self, name: str | None = None) -> LabSpec:
        """The descriptor of one build (None: the lab's default runtime), templates filled in."""
        name = name or self.default_runtime
        if SEPARATOR in name and name not in self.runtimes and self.runtimes:
            base, libraries = split_build_name(name)
            if base in self.runtimes:
                return self.with_runtime(name).for_runtime(build_name(base, libraries))
            name = base  # an unknown runtime: the error below names it
        if not self.runtimes:
            if name != DEFAULT_RUNTIME:
                raise UnknownNameError(
                    "runtime", name, [DEFAULT_RUNTIME], f"for lab {self.name} (its lab.toml declares no [runtimes])"
                )
            return dataclasses.replace(self, runtime=DEFAULT_RUNTIME)
        if name not in self.runtimes:
            raise UnknownNameError(
                "runtime", name, self.runtimes, f"for lab {self.name} (lab/{self.name}/lab.toml [runtimes])"
            )
        spec = self.runtimes[name]
        extra = self.library_versions.arguments(spec.libraries) if self.library_versions else ()
        values = {"runtime": name, "version": spec.version, "library_arguments": " ".join(extra), **spec.values}
        for package in sorted(self.accepted_terms & set(self.vendor_packages)):
            values.update({k: v.format(**values) for k, v in self.vendor_packages[package].values.items()})
        if spec.libraries and "lock_file" in values:  # its own, beside the one the runtime (and accepted terms) name
            values["lock_file"] = derived_lock_file(values["lock_file"], spec.libraries)

        def fill(text: str) -> str:
            try:
                return text.format(**values)
            except KeyError as e:
                raise ConfigError(
                    f"lab/{self.name}/lab.toml: {text!r} names {e}, which runtime {name} does not define",
                    f'add {e.args[0]} = "..." to [runtimes."{name}"]',
                ) from e

        lock_files = tuple(
            f
            for package in sorted(self.accepted_terms & set(self.vendor_packages))
            for f in self.vendor_packages[package].offline_lock_files
        ) + ((fill(self.libraries.lock_file),) if spec.libraries and self.libraries else ())
        return dataclasses.replace(
            self,
            runtime=name,
            build=tuple(fill(a) for a in self.build) + extra,
            command=tuple(fill(a) for a in self.command),
            environment={**{k: fill(v) for k, v in self.environment.items()}, **spec.environment},
            build_output=fill(self.build_output),
            container=self.container and self.container.filled(fill, lock_files, extra),
            libraries=self.libraries and self.libraries.filled(fill),
            library_versions=self.library_versions and self.library_versions.filled(fill, spec.libraries),
        )


_LISTS = ("requires", "build", "command", "build_inputs", "build_ignore")
_TABLES = ("runtimes", "runtime_defaults", "environment", "container", "library_versions")


def load_lab(directory: pathlib.Path) -> LabSpec:
    """Reads one lab.toml; a key of _LISTS that is not a list, or of _TABLES not a table, is refused, naming it."""
    path = directory / "lab.toml"
    data = read_toml(path, "compare it with lab/dotnet/lab.toml (docs/lab-contract.md)")
    try:
        if bad := [k for k in _LISTS + _TABLES if k in data and not isinstance(data[k], list if k in _LISTS else dict)]:
            raise TypeError(f"{bad[0]} is {data[bad[0]]!r}, not a {'list' if bad[0] in _LISTS else 'table'}")
        runtimes = parse_runtimes(toml_table(data.get("runtimes")), toml_table(data.get("runtime_defaults")))
        default_runtime = str(data.get("default_runtime", next(iter(runtimes), DEFAULT_RUNTIME)))
        if runtimes and default_runtime not in runtimes:
            raise ConfigError(
                f"{path}: default_runtime {default_runtime!r} is not one of its [runtimes]",
                f"pick one of {', '.join(runtimes)}",
            )
        versions = data.get("library_versions")  # a table or left out (checked above)
        return LabSpec(
            name=str(data["name"]),
            directory=directory,
            language=str(data["language"]),
            raw_format=str(data["raw_format"]),
            requires=tuple(str(v) for v in toml_array(data.get("requires"))),
            build=tuple(str(v) for v in toml_array(data.get("build"))),
            command=tuple(str(v) for v in toml_array(data["command"])),
            environment={k: str(v) for k, v in toml_table(data.get("environment")).items()},
            runtimes=runtimes,
            default_runtime=default_runtime,
            build_inputs=tuple(str(v) for v in toml_array(data.get("build_inputs"))),
            build_ignore=tuple(str(v) for v in toml_array(data.get("build_ignore"))),
            build_output=str(data.get("build_output", "")),
            container=parse_container(toml_table(data["container"])) if "container" in data else None,
            paired_format=str(data["paired_format"]) if "paired_format" in data else None,
            native_anchors=bool(data.get("native_anchors", False)),
            paired_handoff=bool(data.get("paired_handoff", False)),
            unshared_variants=parse_unshared_variants(data, path),
            speed_of_light=bool(data.get("speed_of_light", False)),
            run_settings=parse_lab_run_settings(data, path),
            vendor_packages=parse_vendor_packages(data, str(path)),
            libraries=parse_libraries(data, path, "container" in data),
            checks=parse_checks(data, path),
            library_versions=parse_library_versions(versions if isinstance(versions, dict) else None, str(path)),
            declared_models=parse_declared_models_target(data, path),
        )
    except (KeyError, TypeError) as e:
        raise ConfigError(f"{path} is malformed: {e}", "compare it with lab/dotnet/lab.toml") from e


def load_labs(labs_dir: pathlib.Path = LABS_DIR, accepted: frozenset[str] | None = None) -> dict[str, LabSpec]:
    """All labs under lab/, by name, each with the vendor's terms the user accepted (`accepted`, else lab.local.toml);
    accepting a package no lab declares is an error."""
    accepted = accepted_terms() if accepted is None else accepted
    labs = [load_lab(d) for d in sorted(labs_dir.iterdir()) if (d / "lab.toml").is_file()]
    for index, lab in enumerate(labs):
        other = next((o for o in labs[:index] if o.name == lab.name), None)
        if other is not None:
            raise ConfigError(
                f"{lab.directory / 'lab.toml'} and {other.directory / 'lab.toml'} both have name {lab.name!r} (one "
                "would silently replace the other)",
                "give each lab its own name (the folder's name, by convention)",
            )
    check_accepted(accepted, {name for lab in labs for name in lab.vendor_packages})
    return {
        lab.name: dataclasses.replace(lab, accepted_terms=accepted & frozenset(lab.vendor_packages)) for lab in labs
    }


def find_lab(labs: dict[str, LabSpec], name: str) -> LabSpec:
    """A lab by name, or UnknownNameError listing the valid ones."""
    if name not in labs:
        raise UnknownNameError("lab", name, labs)
    return labs[name]
