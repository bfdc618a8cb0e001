"""Variants with settings chosen in the experiment: a benchmark's `settings = { naming = "camelCase" }` on a variant
that takes settings names the variant "<variant>+<setting>=<value>…" (settings in alphabetical order, one name per
choice), which every layer treats as a variant of its own and the lab builds from its base variant
(lab/dotnet/src/Adapters/VariantSettings.cs). What each variant takes is in its lab's catalog.toml `[[settings]]`
(checked before any build) and its `list` output (checked after the build)."""

from __future__ import annotations

import re

from harness.model.errors import ConfigError

SEPARATOR = "+"
_WORD = re.compile(r"[A-Za-z0-9_.-]{1,64}")
#: What one variant takes: setting -> the values it may have.
Offered = dict[str, tuple[str, ...]]


def _text(value: object) -> str:
    """A setting's value as the lab reads it: true/false for a boolean, the text otherwise."""
    return ("true" if value else "false") if isinstance(value, bool) else str(value)


def with_settings(variant: str, settings: dict[str, object], where: str) -> str:
    """The variant's name with these settings (as written in an experiment), in the one order the lab accepts."""
    if SEPARATOR in variant:
        raise ConfigError(
            f"{where}: variant {variant!r} already names settings and has a `settings` table too",
            "give the settings in one place: the base variant's name with a `settings` table",
        )
    parts = []
    for key in sorted(settings):
        value = _text(settings[key])
        if not _WORD.fullmatch(key) or not _WORD.fullmatch(value):
            raise ConfigError(
                f"{where}: setting {key!r} = {value!r} is not a setting name and value",
                "names and values are letters, digits, _ . - (true/false for a yes/no setting)",
            )
        parts.append(f"{key}={value}")
    return SEPARATOR.join([variant, *parts])


def split(name: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A variant name's base variant and its settings (none for a plain name), held to the lab's rules: each part a
    setting=value of letters, digits, _ . -, each setting once, in alphabetical order (the one name of that choice)."""
    base, *parts = name.split(SEPARATOR)
    settings = tuple(tuple(part.split("=", 1)) for part in parts)
    if not all(len(s) == 2 and _WORD.fullmatch(s[0]) and _WORD.fullmatch(s[1]) for s in settings):
        raise ConfigError(
            f"variant {name!r} has a setting that is not <setting>=<value>",
            "write <variant>+<setting>=<value>, or a `settings` table on the benchmark"
            " (docs/experiments.md#settings-library-options-as-data)",
        )
    keys = [key for key, _ in settings]
    if keys != sorted(set(keys)):
        canonical = SEPARATOR.join([base, *(f"{key}={value}" for key, value in sorted(settings))])
        raise ConfigError(
            f"the settings of variant {name!r} repeat or are out of order",
            f"name each setting once, in alphabetical order: {canonical!r} (or use a `settings` table)",
        )
    return base, settings  # type: ignore[return-value]


def base_of(name: str) -> str:
    """The variant a name with settings is built from (the name itself when it has none)."""
    return name.split(SEPARATOR, 1)[0]


def check_settings(name: str, offered: Offered | None, where: str) -> None:
    """Refuses settings the base variant does not take, or values it does not know, naming what it takes."""
    base, settings = split(name)
    if not settings:
        return
    if not offered:
        raise ConfigError(
            f"{where}: variant {base!r} takes no settings (asked for {name!r})",
            "settings are offered by the variants whose lab catalog lists them ([[settings]] in lab/<lab>/catalog.toml;"
            " docs/experiments.md#settings-library-options-as-data)",
        )
    for key, value in settings:
        if key not in offered:
            raise ConfigError(
                f"{where}: variant {base!r} has no setting {key!r}", f"its settings: {', '.join(sorted(offered))}"
            )
        if value not in offered[key]:
            raise ConfigError(
                f"{where}: setting {key!r} of variant {base!r} cannot be {value!r}",
                f"one of: {', '.join(offered[key])}",
            )


def describe(name: str) -> str:
    """A variant's settings for a reader, "indented=true, naming=camelCase" ("" for none, or for a name that is no
    variant with settings, such as an unavailable benchmark's free text)."""
    try:
        return ", ".join(f"{k}={v}" for k, v in split(name)[1])
    except ConfigError:
        return ""
