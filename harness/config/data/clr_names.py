"""Names in a declared model (harness/config/data/declared_models.py) that the .NET code made from it could not take,
checked with the file, before anything is built: a name Roslyn reserves, two members one library would read as one
(names equal ignoring case), a type named like a .NET type the code or System.Text.Json's source generator
names, and two types the source generator would give one metadata name (SYSLIB1031: one of them left out)."""

from __future__ import annotations

from harness.config.data.model_types import PRIMITIVES, TypeRef
from harness.model.errors import ConfigError

#: C# keywords: a property named like one is written @name (reflection and every serializer see the bare name).
KEYWORDS = frozenset(
    "abstract as base bool break byte case catch char checked class const continue decimal default delegate do double "
    "else enum event explicit extern false finally fixed float for foreach goto if implicit in int interface internal "
    "is lock long namespace new null object operator out override params private protected public readonly ref return "
    "sbyte sealed short sizeof stackalloc static string struct switch this throw true try typeof uint ulong unchecked "
    "unsafe ushort using virtual void volatile while".split()
)

_FIX = "rename it in the model file (docs/experiments.md, 'Models as data')"
#: The CLR names of the primitives, which System.Text.Json's source generator names their metadata after.
CLR_NAMES = {
    "bool": "Boolean",
    "byte": "Byte",
    "sbyte": "SByte",
    "short": "Int16",
    "ushort": "UInt16",
    "int": "Int32",
    "uint": "UInt32",
    "long": "Int64",
    "ulong": "UInt64",
    "float": "Single",
    "double": "Double",
    "decimal": "Decimal",
    "char": "Char",
    "string": "String",
    "DateTime": "DateTime",
    "DateTimeOffset": "DateTimeOffset",
    "Guid": "Guid",
}
#: Type names the generated code or the source-generation context uses for itself.
RESERVED_TYPE_NAMES = frozenset(
    {"List", "Dictionary", "Nullable", "CamelAnnotated", "JsonContext", "Object", "System", "Options", "Default"}
    | set(CLR_NAMES.values())
    | set(PRIMITIVES)
)


def reserved_type_name(name: str) -> bool:
    """A name a declared type may not have (RESERVED_TYPE_NAMES, or System.Text.Json's Json… names)."""
    return name in RESERVED_TYPE_NAMES or name.startswith("Json")


def check_member_name(name: str, what: str) -> None:
    """Roslyn's own words (__arglist, __makeref, …) and an enum's value__ are not names a model may use."""
    if name.startswith("__") or name == "value__":
        raise ConfigError(f"{what}: {name!r} is a name the C# compiler keeps for itself", _FIX)


def camel_case(name: str) -> str:
    """System.Text.Json's JsonNamingPolicy.CamelCase: the leading run of capitals lower-cased, the last one kept when a
    lower-case letter follows it ("URLValue" → "urlValue", "ID" → "id", "Name" → "name")."""
    chars = list(name)
    for i, char in enumerate(chars):
        if i == 1 and not char.isupper():
            break
        if i > 0 and i + 1 < len(chars) and not chars[i + 1].isupper():
            if chars[i + 1] == " ":
                chars[i] = char.lower()
            break
        if not char.isupper():
            break
        chars[i] = char.lower()
    return "".join(chars)


def check_distinct_members(names: list[str], what: str) -> None:
    """Two members equal ignoring case would be read as one: the reference reader and the verifier match names so, as
    case-insensitive libraries do, and the twin's camelCase names (which only lower-case letters) would be one."""
    seen: dict[str, str] = {}
    for name in names:
        other = seen.setdefault(name.lower(), name)
        if other != name:
            raise ConfigError(f"{what}: members {other!r} and {name!r} are one name ignoring case", _FIX)


def metadata_name(ref: TypeRef) -> str:
    """The name System.Text.Json's source generator gives a type's metadata (List<Order> → ListOrder, int? →
    NullableInt32, Order[] → OrderArray, Dictionary<string, int> → DictionaryStringInt32)."""
    inner = metadata_name(ref.item) if ref.item else ""
    return {
        "primitive": CLR_NAMES.get(ref.name, ref.name),
        "named": ref.name,
        "array": f"{inner}Array",
        "list": f"List{inner}",
        "map": f"DictionaryString{inner}",
        "nullable": f"Nullable{inner}",
    }[ref.kind]


def check_metadata_names(uses: list[TypeRef], value_types: set[str], where: str) -> None:
    """Every type the model's code reaches (each expression and its parts) has a metadata name of its own.
    `value_types`: the enums (a nullable enum is Nullable<T>, a nullable class is not a type of its own)."""
    names: dict[str, str] = {}
    for ref in uses:
        for part in _parts(ref, value_types):
            text = part.text()
            other = names.setdefault(metadata_name(part), text)
            if other != text:
                raise ConfigError(
                    f"{where}: {other} and {text} would share System.Text.Json's generated name "
                    f"{metadata_name(part)!r} (one of them would be left out)",
                    _FIX,
                )


def _parts(ref: TypeRef, value_types: set[str]) -> list[TypeRef]:
    if ref.kind == "nullable" and ref.item is not None:
        is_value = (ref.item.kind == "primitive" and ref.item.name != "string") or (
            ref.item.kind == "named" and ref.item.name in value_types
        )
        return ([ref] if is_value else []) + _parts(ref.item, value_types)
    return [ref] + (_parts(ref.item, value_types) if ref.item else [])
