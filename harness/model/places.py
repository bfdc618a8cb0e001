"""Where a cell runs, as a name: its runtime build ("10.0.12", or with library versions "8.0.0+Newtonsoft.Json=13.0.3":
harness/config/lab/library_builds.py), and after it, in brackets, the run settings switched to a publisher's values for
an explanation ("10.0.12[tiered_compilation=off]": harness/config/lab/setting_switches.py). The name is the cell's
`runtime_requested` in every row, so a switched place is compared like any runtime: its own group of cells, its own
ratios, its own verdict rows beside the figure's (analysis/compute/verdicts/explained_by.py)."""

from __future__ import annotations

#: Between a runtime and each library version of its build (harness.config.lab.library_builds.SEPARATOR).
LIBRARY_SEPARATOR = "+"
#: Around the run settings a place switched.
SETTINGS_OPEN, SETTINGS_CLOSE = "[", "]"

#: A cell's run settings: (name, value) pairs, sorted by name (empty: the runtime's defaults).
Settings = tuple[tuple[str, str], ...]
#: A JSON value that is no table or list.
JsonScalar = bool | int | float | str | None
#: What a lab process reads back of its run settings (its `env` verb's `settings`, keys as in lab.toml's `expect`):
#: key -> value, null where the runtime could not tell.
SettingsReadback = dict[str, JsonScalar]


def place_name(runtime: str, switched: Settings) -> str:
    """'10.0.12[tiered_compilation=off]' for a switched run setting, the runtime alone for none."""
    if not switched:
        return runtime
    return runtime + SETTINGS_OPEN + ",".join(f"{name}={value}" for name, value in switched) + SETTINGS_CLOSE


def build_of(place: str) -> str:
    """The runtime build a place runs on (its library versions kept, its switched run settings dropped)."""
    return place.split(SETTINGS_OPEN, 1)[0]


def base_runtime(place: str) -> str:
    """The lab's own runtime under a place: without library versions or switched settings."""
    return build_of(place).split(LIBRARY_SEPARATOR, 1)[0]


def is_switched(place: str) -> bool:
    """True for a place that switches a factor (a library version or a run setting) of its base runtime."""
    return place != base_runtime(place)


def switched_settings(place: str) -> Settings:
    """The run settings a place switched: (("tiered_compilation", "off"),) for '10.0.12[tiered_compilation=off]'."""
    _, opened, rest = place.partition(SETTINGS_OPEN)
    if not opened:
        return ()
    items = rest.removesuffix(SETTINGS_CLOSE).split(",")
    return tuple((name, value) for name, _, value in (item.partition("=") for item in items if item))


def switched_libraries(place: str) -> tuple[tuple[str, str], ...]:
    """The library versions a place's build has beyond its runtime's: (("Newtonsoft.Json", "13.0.3"),)."""
    parts = build_of(place).split(LIBRARY_SEPARATOR)[1:]
    return tuple((package, version) for package, _, version in (part.partition("=") for part in parts))


def factor_text(place: str) -> str:
    """What a switched place changed, as a reader names it: 'Newtonsoft.Json 13.0.3', 'run setting
    tiered_compilation=off'."""
    libraries = [f"{package} {version}" for package, version in switched_libraries(place)]
    settings = [f"run setting {name}={value}" for name, value in switched_settings(place)]
    return ", ".join(libraries + settings)
