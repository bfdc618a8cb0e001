"""Probing labs before any cell runs: runtime version, offered variants, and what each ISA level does here.

Each level's switches are applied to a short `env` call. A level whose readback equals native's
is 'same-as-native' (reported, not re-run); one whose readback contradicts the level is
'not-effective' (its cells fail with the explanation, without being timed).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import cast

from harness.backends.base import Backend
from harness.config.isa import IsaLevel, IsaTable, describe_effective, unmet_expectations
from harness.config.lab.labs import LabSpec
from harness.config.lab.variant_settings import base_of, check_settings
from harness.model.arch import IsaFlags, engine_arch
from harness.model.cells import Cell
from harness.model.errors import HarnessError, UnknownNameError
from harness.model.folder.environment_record import LAB_ENV_REQUIRED, LabEnvReport
from harness.model.folder.field_types import shape_problem, typed_shape
from harness.model.json_value import JsonMapping, JsonObject, JsonValue, as_array, as_object


@dataclass(frozen=True)
class LevelProbe:
    """What one ISA level turned out to be for one lab on this host."""

    level: str
    switches: dict[str, str]
    flags: IsaFlags
    isa_effective: str
    state: str  # "run", "unverifiable" (runs), "same-as-native", "not-applicable", "not-effective" or "not-built"
    detail: str = ""

    @property
    def runs(self) -> bool:
        """True when cells at this level are measured (it took effect, or its effect cannot be read back)."""
        return self.state in ("run", UNVERIFIABLE)


#: A level whose switches were applied but whose effect the runtime cannot read back in-process (lab `env`:
#: "isa_readback": false, e.g. V8's command-line flags): measured, and labelled so in every row.
UNVERIFIABLE = "unverifiable"
#: A level the runtime has no switch for (no entry in the lab's [isa_switches] in its lab.toml): reported, never run
# as native.
NOT_APPLICABLE = "not-applicable"


@dataclass(frozen=True)
class LabProbe:
    """A lab build's native environment, its variant list, and its ISA levels here; `lab` is the build's target
    name (LabSpec.target: 'dotnet', or 'dotnet@8.0.0' for one runtime of a lab built per runtime)."""

    lab: str
    env: LabEnvReport
    listing: JsonObject  # the lab's `list` answer (docs/lab-contract.md): its variants, composites, parsers, models
    levels: dict[str, LevelProbe] = field(default_factory=dict)

    @property
    def emulated(self) -> bool:
        """True when the lab runs under emulation (its arch differs from the engine's)."""
        return self.env.get("arch") != engine_arch()


def classify_level(
    lab: LabSpec, level: IsaLevel, switches: dict[str, str], flags: IsaFlags, native_flags: IsaFlags
) -> LevelProbe:
    """What a level's readback means: runs, identical to native, or did not take effect."""
    unmet = unmet_expectations(level, flags)
    effective = describe_effective(flags)
    if unmet:
        detail = (
            f"ISA level '{level.name}' did not take effect in lab {lab.name}: {', '.join(unmet)}; "
            f"switches applied: {switches or 'none'}"
        )
        return LevelProbe(level.name, switches, flags, effective, "not-effective", detail)
    if level.name != "native" and flags == native_flags:
        return LevelProbe(
            level.name,
            switches,
            flags,
            effective,
            "same-as-native",
            f"identical to native on this CPU ({effective}): measured only where the run does not measure native too",
        )
    return LevelProbe(level.name, switches, flags, effective, "run")


def check_runtime_version(lab: LabSpec, env: LabEnvReport) -> None:
    """A build pinned to a runtime version must report exactly that version from inside its process."""
    expected = lab.expected_version()
    if expected is not None and env.get("runtime_version") != expected:
        raise HarnessError(
            f"lab build {lab.target} should run on {env.get('runtime')} {expected} but its process reports "
            f"{env.get('runtime_version')}",
            f"rebuild it (delete lab/{lab.name}/{lab.build_output} and run again); the publish must be self-contained "
            f"with RuntimeFrameworkVersion={expected}",
        )
    declared = lab.reported_runtime()
    if declared is not None and env.get("runtime") != declared:
        raise HarnessError(
            f"lab build {lab.target} declares that it reports runtime {declared!r} but its process reports "
            f"{env.get('runtime')!r}",
            f'set reports = "{env.get("runtime")}" for runtime {lab.runtime} in lab/{lab.name}/lab.toml (the key of '
            "its [isa_switches] tables), or fix what the lab's env verb reports",
        )


def check_library_versions(lab: LabSpec, env: LabEnvReport) -> None:
    """A build with library versions (config/lab/library_builds.py) must report exactly those, read in its process from
    the loaded assemblies (the `env` verb's `libraries`)."""
    reported = env.get("libraries")
    loaded: dict[str, str | None] = reported if isinstance(reported, dict) else {}
    for package, version in lab.build_libraries:
        if loaded.get(package) != version:
            raise HarnessError(
                f"lab build {lab.target} should load {package} {version} but its process reports "
                f"{loaded.get(package, 'no version of it')}",
                f"rebuild it (delete lab/{lab.name}/{lab.build_output} and its lock file, then run again); the lab "
                f"must report the loaded assembly's version of {package} in its env verb's libraries",
            )


def unverifiable_level(env: LabEnvReport, level: str, switches: dict[str, str]) -> LevelProbe:
    """A level applied on a runtime that cannot read its instruction sets back (what it requested is what is known)."""
    requested = env.get("isa_requested_flags") or switches or "no switches"
    return LevelProbe(
        level,
        switches,
        {},
        UNVERIFIABLE,
        UNVERIFIABLE,
        f"{env['runtime']} {env['runtime_version']} cannot read its instruction sets back in-process; requested: "
        f"{requested}",
    )


def lab_env(lab: LabSpec, answer: object, switches: dict[str, str] | None = None) -> LabEnvReport:
    """A lab process's `env` answer, checked once against the keys the harness reads (docs/lab-contract.md): a lab
    that answers in another shape is named with the key, never a traceback further on."""
    problem = shape_problem(answer, typed_shape(LabEnvReport), LAB_ENV_REQUIRED)
    if problem:
        started = f" started with {', '.join(f'{k}={v}' for k, v in switches.items())}" if switches else ""
        raise HarnessError(
            f"lab {lab.target}'s `env` answer{started}: {problem}",
            "its env verb must print language, runtime, runtime_version and arch as texts, isa as flag -> boolean "
            "(docs/lab-contract.md, its verbs); fix the lab and rebuild it",
        )
    return cast(LabEnvReport, answer)


def probe_lab(backend: Backend, lab: LabSpec, levels: list[IsaLevel], isa: IsaTable) -> LabProbe:
    """Native env + list (the runtime version checked against the build's pin), then every requested level."""
    env = lab_env(lab, backend.call(lab, ["env"], {}))
    check_runtime_version(lab, env)
    check_library_versions(lab, env)
    listing = as_object(backend.call(lab, ["list"], {}))  # an answer of another kind: as one without variants
    readback = env.get("isa_readback", True)
    native_level = isa.levels_for(env["arch"])["native"]
    native = (
        classify_level(lab, native_level, {}, dict(env["isa"]), {})
        if readback
        else unverifiable_level(env, "native", {})
    )
    probes = {"native": native}
    for level in levels:
        if level.name == "native":
            continue
        if not isa.has_switches(env["runtime"], env["runtime_version"], level.name):
            probes[level.name] = LevelProbe(
                level.name,
                {},
                {},
                "n/a",
                NOT_APPLICABLE,
                f"{env['runtime']} {env['runtime_version']} has no switch for ISA level '{level.name}' "
                "(no entry in the lab's [isa_switches], lab/<lab>/lab.toml)",
            )
            continue
        switches = isa.switches_for(env["runtime"], env["runtime_version"], level.name)
        answer = lab_env(lab, backend.call(lab, ["env"], switches), switches)
        probes[level.name] = (
            classify_level(lab, level, switches, dict(answer["isa"]), native.flags)
            if readback
            else unverifiable_level(answer, level.name, switches)
        )
    return LabProbe(lab.target, env, listing, probes)


def check_variants(probe: LabProbe, cells: list[Cell]) -> None:
    """Every planned variant must be one the lab offers, with settings it takes (as its `list` gives them)."""
    entries = map(as_object, as_array(probe.listing["variants"]))
    offered = {name: v for v in entries if isinstance(name := v["variant"], str)}
    for cell in cells:
        if cell.target != probe.lab or cell.unavailable:
            continue
        where = f"for lab {probe.lab} (benchmark {cell.benchmark} of experiment {cell.experiment})"
        base = base_of(cell.variant)
        if base not in offered:
            raise UnknownNameError("variant", base, set(offered), where)
        check_settings(cell.variant, _settings_listed(probe.lab, offered[base]), where)
        runs = offered[base].get("composites") or []
        if cell.operation in members(probe.listing.get("composites") or []) and cell.operation not in members(runs):
            raise HarnessError(
                f"variant {base!r} {where} cannot run the composite {cell.operation} (its `list` says so)",
                "its lab's catalog.toml [composites] is out of step with the lab: rebuild it, or pick another variant",
            )


def members(value: JsonValue) -> Iterable[JsonValue]:
    """A collection of a lab's answer as Python iterates it (an array's items, an object's keys, a text's
    characters); TypeError for a number, a boolean or null, as iterating one raises."""
    if isinstance(value, (list, dict, str)):
        return value
    raise TypeError(f"'{type(value).__name__}' object is not iterable")


def _member(setting: JsonValue, key: str) -> JsonValue:
    """A member of a setting of a `list` entry: KeyError when it lacks it, TypeError when it is not an object."""
    if isinstance(setting, dict):
        return setting[key]
    raise TypeError(f"a setting is {type(setting).__name__}, not an object")


def _settings_listed(lab: str, entry: JsonMapping) -> dict[str, tuple[str, ...]]:
    """A `list` entry's settings (docs/lab-contract.md): setting -> values; a malformed list is the lab's fault."""
    try:
        settings = members(entry.get("settings") or [])
        return {str(_member(s, "name")): tuple(str(v) for v in members(_member(s, "values"))) for s in settings}
    except (KeyError, TypeError) as e:
        raise HarnessError(
            f"lab {lab}'s `list` gives variant {entry.get('variant')!r} settings of another shape ({e})",
            "each setting is {name, values: [...], meaning} (docs/lab-contract.md); rebuild the lab",
        ) from None


def check_arch(probe: LabProbe, arch: str) -> None:
    """The levels were chosen for `arch`; a lab reporting another arch needs other levels."""
    if probe.env.get("arch") != arch:
        raise HarnessError(
            f"lab {probe.lab} runs as {probe.env.get('arch')}, but ISA levels were chosen for {arch}",
            "pick levels of the lab's architecture with --isa",
        )
