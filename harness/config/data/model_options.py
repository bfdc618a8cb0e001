"""What a model file says of the publisher's code beyond the shape of its types (harness/config/data/declared_models.py
reads them with the rest of the file): how each type is constructed, the options of the space's System.Text.Json
source-generation context, and a member's converter.

    [construction]            # how the publisher's code built each type; "settable" ({ get; set; }) when left out
    Person = "positional"     # record Person(string FirstName, int Age): read through its constructor
    Address = "init"          # { get; init; }: set once, by the serializer's object initializer
    [sourcegen]               # the space's source-generation context (the stj-sourcegen variants); STJ's defaults
    naming = "as_declared"    # camelCase, snake_case_lower, snake_case_upper, kebab_case_lower, kebab_case_upper
    mode = "default"          # metadata, serialization
    indented = false
    ignore_nulls = false      # DefaultIgnoreCondition = WhenWritingNull
    case_insensitive = false
    enums_as_strings = false  # UseStringEnumConverter
    [converters.Order]        # a member's converter, as a [JsonConverter] attribute on it in the publisher's code
    State = "enum_as_string"  # System.Text.Json's JsonStringEnumConverter (Newtonsoft.Json: newtonsoft_enum_as_string)

Each value is checked against these lists before anything is built: an unknown type, member, key or value is an error
naming the table and key, with the values there are."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from harness.config.data_files import TomlTable, TomlValue
from harness.model.errors import ConfigError

_FIX = "fix the model file (docs/experiments.md, 'Models as data')"

#: How a type is constructed: settable properties (the default), init-only ones, or a positional record whose
#: constructor takes every property in file order.
CONSTRUCTIONS = ("settable", "init", "positional")
#: Members a positional record declares itself (C# refuses a positional parameter of one of these names).
RECORD_MEMBERS = frozenset(
    {"EqualityContract", "PrintMembers", "Deconstruct", "Equals", "GetHashCode", "ToString", "GetType", "Finalize"}
    | {"MemberwiseClone"}
)

#: The naming policies of a source-generation context (JsonKnownNamingPolicy, .NET 8's), by the lab's setting names.
NAMINGS = {
    "as_declared": "",
    "camelCase": "CamelCase",
    "snake_case_lower": "SnakeCaseLower",
    "snake_case_upper": "SnakeCaseUpper",
    "kebab_case_lower": "KebabCaseLower",
    "kebab_case_upper": "KebabCaseUpper",
}
#: JsonSourceGenerationMode's values.
MODES = {"default": "Default", "metadata": "Metadata", "serialization": "Serialization"}
_FLAGS = ("indented", "ignore_nulls", "case_insensitive", "enums_as_strings")

#: A member's converter: the attribute the publisher put on it, each for the one library that reads it (another library
#: ignores the other's attribute, as it did in the publisher's code).
CONVERTERS = ("enum_as_string", "newtonsoft_enum_as_string")


@dataclass(frozen=True)
class SourceGenOptions:
    """The options of a space's System.Text.Json source-generation context ([sourcegen]); STJ's defaults."""

    naming: str = "as_declared"
    mode: str = "default"
    indented: bool = False
    ignore_nulls: bool = False
    case_insensitive: bool = False
    enums_as_strings: bool = False

    def describe(self, with_mode: bool = True) -> str:
        """The options that differ from System.Text.Json's defaults, as the model file writes them ("" for none);
        without the mode, as the .NET lab reads a built context back (`list`: a mode leaves no mark on its options)."""
        default = SourceGenOptions()
        changed = {k: v for k, v in vars(self).items() if getattr(default, k) != v and (with_mode or k != "mode")}
        return ", ".join(f"{k}={str(v).lower() if isinstance(v, bool) else v}" for k, v in changed.items())


@dataclass(frozen=True)
class PublisherCode:
    """What the model file says of the publisher's code: construction per type, the context's options, converters
    per type and member."""

    construction: dict[str, str]
    sourcegen: SourceGenOptions
    converters: dict[str, dict[str, str]]

    def construction_of(self, type_name: str) -> str:
        return self.construction.get(type_name, "settable")

    def converter_of(self, type_name: str, member: str) -> str | None:
        return self.converters.get(type_name, {}).get(member)


def read_publisher_code(
    data: Mapping[str, TomlValue], members: dict[str, list[str]], enum_members: dict[str, set[str]], where: str
) -> PublisherCode:
    """The [construction], [sourcegen] and [converters] tables, checked against the file's types (`members`: type →
    its properties; `enum_members`: type → its properties whose type is a declared enum); ConfigError naming the first
    fault."""
    return PublisherCode(
        _construction(data.get("construction", {}), members, where),
        _sourcegen(data.get("sourcegen", {}), where),
        _converters(data.get("converters", {}), members, enum_members, where),
    )


def _construction(table: TomlValue, members: dict[str, list[str]], where: str) -> dict[str, str]:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [construction] is a table of type = how it is built", _FIX)
    construction: dict[str, str] = {}
    for name, how in table.items():
        if name not in members:
            raise ConfigError(
                f"{where}: [construction] names {name!r}, which is not a type of [types]",
                f"the types: {', '.join(sorted(members)) or 'none'}",
            )
        if not isinstance(how, str) or how not in CONSTRUCTIONS:
            raise ConfigError(
                f"{where}: [construction] {name} = {how!r} is not a construction",
                f"write one of {', '.join(CONSTRUCTIONS)}",
            )
        if how == "positional" and (taken := sorted(set(members[name]) & RECORD_MEMBERS)):
            raise ConfigError(
                f"{where}: [construction] {name} is positional, but its property {taken[0]} is named like a member "
                "every record declares",
                "rename the property, or build the type with settable or init properties",
            )
        construction[name] = how
    return construction


def _sourcegen(table: TomlValue, where: str) -> SourceGenOptions:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [sourcegen] is a table of the context's options", _FIX)
    keys = ("naming", "mode") + _FLAGS
    if unknown := sorted(set(table) - set(keys)):
        raise ConfigError(f"{where}: [sourcegen] has no option {unknown[0]!r}", f"options: {', '.join(keys)}")
    default = SourceGenOptions()
    naming = _one_of(table, "naming", NAMINGS, default.naming, where)
    mode = _one_of(table, "mode", MODES, default.mode, where)
    for key in _FLAGS:
        if key in table and not isinstance(table[key], bool):
            raise ConfigError(f"{where}: [sourcegen] {key} is true or false", _FIX)
    # each flag true or false (checked above), false when left out: STJ's defaults, SourceGenOptions'
    return SourceGenOptions(naming, mode, *(table.get(key) is True for key in _FLAGS))


def _one_of(table: TomlTable, key: str, values: dict[str, str], default: str, where: str) -> str:
    """[sourcegen] `key`, a name of `values`; `default` when left out."""
    value = table.get(key, default)
    if value not in values:
        raise ConfigError(
            f"{where}: [sourcegen] {key} = {value!r} is not one of its values", f"write one of {', '.join(values)}"
        )
    return str(value)  # a name of `values`: text already


def _converters(
    table: TomlValue, members: dict[str, list[str]], enum_members: dict[str, set[str]], where: str
) -> dict[str, dict[str, str]]:
    if not isinstance(table, dict):
        raise ConfigError(f"{where}: [converters] is a table per type: [converters.<Type>] <member> = converter", _FIX)
    found: dict[str, dict[str, str]] = {}
    for name, spec in table.items():
        if name not in members:
            raise ConfigError(
                f"{where}: [converters.{name}] names a type that is not in [types]",
                f"the types: {', '.join(sorted(members)) or 'none'}",
            )
        if not isinstance(spec, dict):
            raise ConfigError(f"{where}: [converters.{name}] is a table of member = converter", _FIX)
        converters: dict[str, str] = {}
        for member, converter in spec.items():
            if member not in members[name]:
                raise ConfigError(
                    f"{where}: [converters.{name}] names {member!r}, which is not a property of {name}",
                    f"its properties: {', '.join(members[name])}",
                )
            if member not in enum_members.get(name, set()):
                raise ConfigError(
                    f"{where}: [converters.{name}] {member} is not of an enum type (a converter here writes an enum's "
                    "name)",
                    "give the member a declared enum's type (not nullable, not in a container), or no converter",
                )
            if not isinstance(converter, str) or converter not in CONVERTERS:
                raise ConfigError(
                    f"{where}: [converters.{name}] {member} = {converter!r} is not a converter",
                    f"write one of {', '.join(CONVERTERS)}",
                )
            converters[member] = converter
        found[name] = converters
    return found
