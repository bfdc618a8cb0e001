"""Reading the declared models (datasets/models/<space>.toml, and the user's in datasets/local/models/): each file is a
*space* of types, enums and the roots datasets name, checked as untrusted input before any lab code is made from it.

    schema_version = 1
    [roots]                      # what a dataset's "model" names: "<space>.<root>"
    people = "List<Person>"
    [enums.Colour]
    values = ["Red", "Green"]    # numbered 0, 1, … (most libraries write the number)
    [types.Person]               # properties in file order; each name is the JSON member's, each value a type
    Name = "string"
    Age = "int"
    Favourite = "Colour?"

Names are C# identifiers (a C# keyword is escaped where code is written; harness/config/data/clr_names.py has the rest
of what .NET code needs of them); each lab puts a space's types in a
namespace of their own, so two spaces may both declare a `Person`."""

from __future__ import annotations

import pathlib
import re
from collections.abc import Mapping
from dataclasses import dataclass

from harness.config.data.clr_names import (
    check_distinct_members,
    check_member_name,
    check_metadata_names,
    reserved_type_name,
)
from harness.config.data.model_options import PublisherCode, SourceGenOptions, read_publisher_code
from harness.config.data.model_types import IDENTIFIER, PRIMITIVES, TypeRef, TypeSyntaxError, parse_type
from harness.config.data_files import TomlTable, TomlValue, read_toml
from harness.model.errors import ConfigError

#: Where declared models live, under datasets/: the lab's (committed) and the user's (git-ignored, `just payload`).
MODEL_DIRS = ("models", "local/models")
SPACE_NAME = re.compile(r"[a-z][a-z0-9-]{0,47}")
ROOT_NAME = re.compile(r"[a-z][a-z0-9-]{0,47}")
MAX_MODEL_FILE_BYTES = 256 << 10
MAX_TYPES = 200
MAX_PROPERTIES = 200
MAX_ENUM_VALUES = 200
MAX_ROOTS = 50
_FIX = "fix the model file (docs/experiments.md, 'Models as data')"


@dataclass(frozen=True)
class Property:
    name: str
    type: TypeRef


@dataclass(frozen=True)
class DeclaredType:
    name: str
    properties: tuple[Property, ...]


@dataclass(frozen=True)
class DeclaredEnum:
    name: str
    values: tuple[str, ...]


@dataclass(frozen=True)
class ModelSpace:
    """One model file: its space name (the file's stem), types, enums and roots (root name → type)."""

    name: str
    source: str  # its path under datasets/
    types: tuple[DeclaredType, ...]
    enums: tuple[DeclaredEnum, ...]
    roots: dict[str, TypeRef]
    #: what the file says of the publisher's code: construction, source-generation options, converters
    code: PublisherCode = PublisherCode({}, SourceGenOptions(), {})

    def model_names(self) -> list[str]:
        """The names datasets give as their "model": "<space>.<root>"."""
        return [f"{self.name}.{root}" for root in self.roots]

    @property
    def pascal(self) -> str:
        """The space's name as a C# namespace part ("every-primitive" → "EveryPrimitive")."""
        return "".join(part[:1].upper() + part[1:] for part in self.name.split("-"))


def load_spaces(datasets_dir: pathlib.Path) -> list[ModelSpace]:
    """Every model file under datasets/models/ and datasets/local/models/, checked; space names are unique."""
    spaces: dict[str, ModelSpace] = {}
    for folder in MODEL_DIRS:
        for path in sorted((datasets_dir / folder).glob("*.toml")):
            space = load_space(path, f"{folder}/{path.name}")
            if space.name in spaces or any(s.pascal.lower() == space.pascal.lower() for s in spaces.values()):
                raise ConfigError(
                    f"{folder}/{path.name}: a model space named like it is declared twice",
                    "rename one of the two files (the file's name is its space's name)",
                )
            spaces[space.name] = space
    return list(spaces.values())


def declared_model_names(datasets_dir: pathlib.Path) -> list[str]:
    """Every "<space>.<root>" a dataset may name as its model."""
    return [name for space in load_spaces(datasets_dir) for name in space.model_names()]


def load_space(path: pathlib.Path, source: str = "") -> ModelSpace:
    """One model file, checked; ConfigError naming the first fault."""
    name = path.stem
    if not SPACE_NAME.fullmatch(name):
        raise ConfigError(
            f"{path.name}: a model file's name is its space's name: lower-case letters, digits and dashes, "
            "starting with a letter",
            "rename the file",
        )
    data = read_toml(path, _FIX, MAX_MODEL_FILE_BYTES)
    where = f"model file {path.name}"
    keys = ["schema_version", "description", "provenance", "roots", "types", "enums", "construction", "sourcegen"]
    keys += ["converters"]
    unknown = set(data) - set(keys)
    if unknown:
        raise ConfigError(f"{where}: unknown keys {sorted(unknown)}", f"keys: {', '.join(keys)}")
    if data.get("schema_version") != 1:
        raise ConfigError(f"{where}: schema_version must be 1", _FIX)
    enums = _enums(data.get("enums", {}), where)
    types = _types(data.get("types", {}), where)
    roots = _roots(data.get("roots", {}), where)
    _check_names_resolve(types, enums, roots, where)
    members = {t.name: [p.name for p in t.properties] for t in types}
    enum_names = {e.name for e in enums}
    enum_members = {
        t.name: {p.name for p in t.properties if p.type.kind == "named" and p.type.name in enum_names} for t in types
    }
    code = read_publisher_code(data, members, enum_members, where)
    return ModelSpace(name, source or path.name, types, enums, roots, code)


def _table(value: TomlValue, what: str, limit: int) -> TomlTable:
    if not isinstance(value, dict):
        raise ConfigError(f"{what} is a table", _FIX)
    if len(value) > limit:
        raise ConfigError(f"{what} has {len(value)} entries; at most {limit}", "split the model into spaces")
    return value


def _type_name(name: str, where: str) -> str:
    if not IDENTIFIER.fullmatch(name) or not name[0].isupper():
        raise ConfigError(f"{where}: type name {name!r} is not a C# identifier starting with a capital letter", _FIX)
    if reserved_type_name(name):
        raise ConfigError(
            f"{where}: {name!r} cannot name a declared type (a primitive, a .NET type, a name the lab's code uses, or "
            "one starting Json, System.Text.Json's)",
            _FIX,
        )
    check_member_name(name, where)
    return name


def _enums(table: TomlValue, where: str) -> tuple[DeclaredEnum, ...]:
    enums = []
    for name, spec in _table(table, f"{where} [enums]", MAX_TYPES).items():
        _type_name(name, where)
        values = spec.get("values") if isinstance(spec, dict) else None
        if set(spec if isinstance(spec, dict) else {}) - {"values"} or not isinstance(values, list) or not values:
            raise ConfigError(f"{where}: [enums.{name}] has one key, values: a list of names", _FIX)
        names: list[str] = []
        for value in values:
            if not isinstance(value, str) or not IDENTIFIER.fullmatch(value):
                raise ConfigError(f"{where}: [enums.{name}] value {value!r} is not a C# identifier", _FIX)
            check_member_name(value, f"{where}: [enums.{name}]")
            names.append(value)
        if len(names) > MAX_ENUM_VALUES or len({v.lower() for v in names}) != len(names):
            raise ConfigError(
                f"{where}: [enums.{name}] values are distinct ignoring case, at most {MAX_ENUM_VALUES}", _FIX
            )
        enums.append(DeclaredEnum(name, tuple(names)))
    return tuple(enums)


def _types(table: TomlValue, where: str) -> tuple[DeclaredType, ...]:
    types = []
    for name, spec in _table(table, f"{where} [types]", MAX_TYPES).items():
        _type_name(name, where)
        properties = []
        for member, text in _table(spec, f"{where} [types.{name}]", MAX_PROPERTIES).items():
            if not IDENTIFIER.fullmatch(member):
                raise ConfigError(
                    f"{where}: [types.{name}] property {member!r} is not a C# identifier",
                    "a property's name is its JSON member's; a member named otherwise cannot be declared yet",
                )
            if member == name:
                raise ConfigError(f"{where}: [types.{name}] has a property named like its type, which C# refuses", _FIX)
            check_member_name(member, f"{where}: [types.{name}]")
            properties.append(Property(member, _parse(text, f"{where}: [types.{name}] {member}")))
        if not properties:
            raise ConfigError(
                f"{where}: [types.{name}] has no properties",
                "give it the JSON members it holds (an object whose keys are data is a Dictionary<string, T>)",
            )
        check_distinct_members([p.name for p in properties], f"{where}: [types.{name}]")
        types.append(DeclaredType(name, tuple(properties)))
    return tuple(types)


def _roots(table: TomlValue, where: str) -> dict[str, TypeRef]:
    roots = {}
    for name, text in _table(table, f"{where} [roots]", MAX_ROOTS).items():
        if not ROOT_NAME.fullmatch(name):
            raise ConfigError(f"{where}: root {name!r} is not lower-case letters, digits and dashes", _FIX)
        roots[name] = _parse(text, f"{where}: [roots] {name}")
        if roots[name].kind == "nullable":
            raise ConfigError(f"{where}: root {name!r} is nullable; a dataset holds a value of its model", _FIX)
    if not roots:
        raise ConfigError(f"{where}: no [roots]: a dataset names a root as its model", 'add [roots] <name> = "<type>"')
    return roots


def _parse(text: TomlValue, where: str) -> TypeRef:
    try:  # a value that is not text is refused as an empty one is: "a type is a string"
        return parse_type(text if isinstance(text, str) else "")
    except TypeSyntaxError as e:
        raise ConfigError(f"{where}: {e}", _FIX) from None


def _check_names_resolve(
    types: tuple[DeclaredType, ...], enums: tuple[DeclaredEnum, ...], roots: dict[str, TypeRef], where: str
) -> None:
    declared = [t.name for t in types] + [e.name for e in enums]
    if len(set(declared)) != len(declared):
        raise ConfigError(f"{where}: a name is declared twice among [types] and [enums]", _FIX)
    uses = [(f"[types.{t.name}] {p.name}", p.type) for t in types for p in t.properties]
    uses += [(f"[roots] {name}", ref) for name, ref in roots.items()]
    for what, ref in uses:
        missing = ref.named() - set(declared)
        if missing:
            raise ConfigError(
                f"{where}: {what} names {', '.join(sorted(missing))}, which is neither a primitive nor declared here",
                f"declare it under [types] or [enums], or use a primitive ({', '.join(PRIMITIVES)})",
            )
    if any(t.name.endswith("JsonContext") for t in types):
        raise ConfigError(
            f"{where}: a type name ending JsonContext is the lab's own (its source-generation contexts)", _FIX
        )
    named = [TypeRef("named", name=t.name) for t in types]
    check_metadata_names(named + [ref for _, ref in uses], {e.name for e in enums}, where)


@dataclass(frozen=True)
class DeclaredModelsTarget:
    """Where a lab takes the declared models (lab.toml [declared_models]): the emitter that writes its code
    (harness/builds/lab_models.py EMITTERS), the folder, inside the lab, it writes to (generated, git-ignored), and the
    probe that compiles part of that code before the build to leave out what would stop it ("" for none; lab_models.py
    PROBES: "jsonsrcgen", harness/builds/jsonsrcgen_probe.py)."""

    emitter: str
    out: str
    probe: str = ""


def parse_declared_models_target(data: Mapping[str, TomlValue], path: pathlib.Path) -> DeclaredModelsTarget | None:
    spec = data.get("declared_models")
    if spec is None:
        return None
    table = spec if isinstance(spec, dict) else {}
    emitter, out, probe = table.get("emitter"), table.get("out"), table.get("probe", "")
    if (
        not isinstance(spec, dict)
        or not {"emitter", "out"} <= set(spec) <= {"emitter", "out", "probe"}
        or not isinstance(emitter, str)
        or not isinstance(probe, str)
        or not isinstance(out, str)
        or out.startswith("/")
        or ".." in pathlib.PurePosixPath(out).parts
        or len(pathlib.PurePosixPath(out).parts) < 2
    ):
        raise ConfigError(
            f"{path}: [declared_models] has two keys and an optional third: emitter (a name), out (a folder of its own "
            "inside the lab, at least two levels down: the harness owns it) and probe (a name)",
            'write e.g. [declared_models] emitter = "csharp", out = "src/Models/Declared"',
        )
    return DeclaredModelsTarget(emitter, out, probe)
